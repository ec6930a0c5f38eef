import { type Command, InvalidArgumentError, Option } from "commander";
import { defaultLiveReadLimits } from "../checks/diff/live-read-limits.js";
import { capArgument } from "./cap-argument.js";

/** What `--header` and `--protocol-era` parse into. */
export interface LiveServerFlags {
  header?: Record<string, string>;
  protocolEra: "auto" | "modern" | "legacy";
  maxBodyMb?: number;
  liveTimeout?: number;
  maxPages?: number;
}

/** `--header "Name: value"` (repeatable) into a header map. */
function collectHeader(
  value: string,
  previous: Record<string, string> | undefined,
): Record<string, string> {
  const m = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+):\s*(.*)$/.exec(value);
  if (!m) throw new InvalidArgumentError(`expected "Name: value", got "${value}".`);
  return { ...previous, [m[1]]: m[2] };
}

/**
 * Add `--header`, `--protocol-era` and the read caps (`--max-body-mb`, `--live-timeout`,
 * `--max-pages`), the options of every command that talks to a live server.
 */
export function liveServerOptions(command: Command): Command {
  return command
    .option(
      "--header <header>",
      'request header for a live server, "Name: value" (repeatable), e.g. ' +
        '"Authorization: Bearer …"',
      collectHeader,
    )
    .addOption(
      new Option(
        "--protocol-era <era>",
        "protocol era for a live server: auto (2026-07-28 via server/discover, else the 2025 " +
          "initialize handshake), modern or legacy",
      )
        .choices(["auto", "modern", "legacy"])
        .default("auto"),
    )
    .option(
      "--max-body-mb <n>",
      `stop reading a live server after n MB of responses (default ${defaultLiveReadLimits.maxBodyBytes / 1024 / 1024})`,
      capArgument,
    )
    .option(
      "--live-timeout <seconds>",
      `stop talking to a live server after this many seconds (default ${defaultLiveReadLimits.timeoutMs / 1000})`,
      capArgument,
    )
    .option(
      "--max-pages <n>",
      `stop after n tools/list pages of a live server (default ${defaultLiveReadLimits.maxPages})`,
      capArgument,
    );
}

/** The client options the flags name. */
export const liveClientOptions = (flags: LiveServerFlags) => ({
  headers: flags.header ?? {},
  era: flags.protocolEra,
  limits: {
    ...(flags.maxBodyMb && { maxBodyBytes: flags.maxBodyMb * 1024 * 1024 }),
    ...(flags.liveTimeout && { timeoutMs: flags.liveTimeout * 1000 }),
    ...(flags.maxPages && { maxPages: flags.maxPages }),
  },
});

/** `--live <url>` and the like: an http(s):// address, else a usage error. */
export function serverUrlArgument(value: string): string {
  if (!/^https?:\/\/[^/\s]+/i.test(value))
    throw new InvalidArgumentError(`expected an http(s)://HOST/mcp address, got "${value}".`);
  return value;
}

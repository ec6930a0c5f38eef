import { type Command, InvalidArgumentError, Option } from "commander";

/** What `--header` and `--protocol-era` parse into. */
export interface LiveServerFlags {
  header?: Record<string, string>;
  protocolEra: "auto" | "modern" | "legacy";
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

/** Add `--header` and `--protocol-era`, the options of every command that talks to a live server. */
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
    );
}

/** The client options the flags name. */
export const liveClientOptions = (flags: LiveServerFlags) => ({
  headers: flags.header ?? {},
  era: flags.protocolEra,
});

/** `--live <url>` and the like: an http(s):// address, else a usage error. */
export function serverUrlArgument(value: string): string {
  if (!/^https?:\/\/[^/\s]+/i.test(value))
    throw new InvalidArgumentError(`expected an http(s)://HOST/mcp address, got "${value}".`);
  return value;
}

import { type Command, InvalidArgumentError } from "commander";
import type { ConfigOverrides } from "../runtime/config/config.js";

/** The options of the commands that act for a server: where it listens and keeps its data. */
export interface ServeOptions {
  host?: string;
  port?: number;
  dataDir?: string;
  config?: string;
}

/** The server options as configuration overrides. */
export function overrides(opts: ServeOptions): ConfigOverrides {
  return { host: opts.host, port: opts.port, dataDir: opts.dataDir, configFile: opts.config };
}

/** `--port`: an integer 0–65535, checked before anything starts. */
export function portArgument(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError(
      `expected a port number from 0 to 65535 (0 picks a free port), got "${value}".`,
    );
  return Number(value);
}

/** What `--host` and `--port` mean: the server binds them; `session start` binds nothing. */
const ADDRESS_HELP = {
  serve: {
    host: "interface to bind (env HOST; default 127.0.0.1)",
    port: "port to listen on, 0 for any free port (env PORT; default 3000)",
  },
  session: {
    host:
      "host of the server the session is for: its start page and OAuth resource; binds " +
      "nothing (env HOST; default 127.0.0.1)",
    port: "port of that server, as given to `start --port` (env PORT; default 3000)",
  },
} as const;

/**
 * Add `--host`, `--port`, `--data-dir` and `--config` to `command`, described for the server
 * itself (`serve`) or for a command that acts for one (`session`).
 */
export function runtimeOptions(
  command: Command,
  role: keyof typeof ADDRESS_HELP = "serve",
): Command {
  return command
    .option("--host <host>", ADDRESS_HELP[role].host)
    .option("--port <port>", ADDRESS_HELP[role].port, portArgument)
    .option(
      "--data-dir <dir>",
      "SQLite database and secrets (env SKILLPILOT_DATA_DIR; default ./data)",
    )
    .option("--config <file>", "JSON config file (default ./skillpilot.config.json when present)");
}

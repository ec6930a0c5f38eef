import path from "node:path";
import type { RuntimeConfig } from "../runtime/config/config.js";

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** Settings that reach `auth token` and `session start` only through the environment. */
const ENVIRONMENT_ONLY = new Set([
  "DATABASE_URL",
  "SKILLPILOT_PUBLIC_URL",
  "SKILLPILOT_OAUTH_ISSUER",
  "SKILLPILOT_OAUTH_JWKS_URI",
  "SKILLPILOT_LAUNCH_SECRET",
  "SKILLPILOT_LOG_HMAC_KEY",
  "SKILLPILOT_CAPABILITY_KEYS",
  "SKILLPILOT_LAUNCH_URL",
]);

/** What the server was started with, and how a later command would read it without flags. */
export interface BannerInput {
  /** The running server's configuration (with the bound port). */
  config: RuntimeConfig;
  /** The same project and config file read without flags and without the environment. */
  plain: RuntimeConfig;
  /** `--config` as given to `start`. */
  configFile?: string;
  /** The working directory the banner's commands will be run from. */
  cwd: string;
  /** Environment variables of the configuration that were set for the server. */
  environment: readonly string[];
}

/**
 * The options that make `auth token` and `session start` act for exactly this server, when run
 * in a shell that lacks the server's environment: the config file, and every data directory, host
 * and port that differs from what the command would find alone.
 */
export function serverArguments(input: BannerInput): string[] {
  const { config, plain } = input;
  const args: string[] = [];
  if (input.configFile) args.push("--config", input.configFile);
  if (config.dataDir !== plain.dataDir) args.push("--data-dir", config.dataDir);
  if (config.host !== plain.host) args.push("--host", config.host);
  if (config.port !== plain.port) args.push("--port", String(config.port));
  return args;
}

/** The banner's note on settings that only the environment carries (none: empty). */
export function environmentNote(input: BannerInput): string {
  const needed = input.environment.filter((name) => ENVIRONMENT_ONLY.has(name));
  return needed.length ? ` (with the server's ${needed.join(", ")} in the environment)` : "";
}

/** One of the banner's commands, e.g. `npx skillpilot auth token --learner NAME --port 3001`. */
export function bannerCommand(command: string, input: BannerInput): string {
  const root = path.resolve(input.config.root);
  const words = [
    "npx skillpilot",
    ...(root !== path.resolve(input.cwd) ? ["-C", shellWord(root)] : []),
    command,
    ...serverArguments(input).map(shellWord),
  ];
  return `${words.join(" ")}${environmentNote(input)}`;
}

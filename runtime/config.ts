import { readFile } from "node:fs/promises";
import path from "node:path";
import type { KeyringConfig } from "./capability/index.js";
import { projectLayout } from "../contract/project-layout.js";

/** Everything the runtime reads from the environment, a config file and CLI flags. */
export interface RuntimeConfig {
  /** Project root: schemas/, release/line.json and curricula/ are resolved from here. */
  root: string;
  host: string;
  /** 0 picks a free port (tests, benchmarks). */
  port: number;
  /** Where the SQLite database and the generated secrets live. */
  dataDir: string;
  /** A `postgres://` URL selects the PostgreSQL store; unset means the embedded SQLite file. */
  databaseUrl?: string;
  /** Extra hostnames accepted in Host/Origin besides the loopback names (DNS-rebinding guard). */
  allowedHosts: string[];
  /** First-party start page; every session error ends with it (C14). */
  launchUrl: string;
  /** The contract line file; re-read on every launch so a policy flip applies at once. */
  lineFile: string;
  /** First-party allowlist a WARN/BLOCK successor must be on (L11). */
  allowlistFile: string;
  curriculumFile: string;
  /** Lifetime of a learning session. */
  sessionTtlSeconds: number;
  /** Retention of idempotency records (PT1H, L8). */
  idempotencyTtlSeconds: number;
  /** Deployed build (L2), e.g. a git SHA; logged on every call. */
  serverBuild: string;
  /** pino destination: a file path, or "stdout". */
  logDestination: string;
  logLevel: string;
  /**
   * The server's public base URL (e.g. https://coach.example.com); the launch answer's `mcpUrl` is
   * built from it. Unset: the bound origin on loopback, the plugin identity's `mcpUrl` otherwise.
   */
  publicUrl?: string;
  /**
   * Bearer secret of the launch API when bound beyond loopback; generated into secrets.json when
   * unset.
   */
  launchSecret?: string;
  /**
   * Key of the log fingerprint (L13); generated into secrets.json when unset, required with
   * `databaseUrl`.
   */
  logHmacKey?: string;
  /**
   * Capability keyring (C11); generated into secrets.json when unset, required with `databaseUrl`.
   */
  capabilityKeys?: KeyringConfig;
}

/** Keys a config file may set (JSON, `skillpilot.config.json` in the root by default). */
export type ConfigFile = Partial<Omit<RuntimeConfig, "root">>;

/** Flag values from the CLI; they win over env, which wins over the file. */
export interface ConfigOverrides extends ConfigFile {
  configFile?: string;
}

const DEFAULT_CONFIG_FILE = projectLayout.configFile;

function envConfig(env: NodeJS.ProcessEnv): ConfigFile {
  const out: ConfigFile = {};
  if (env.HOST) out.host = env.HOST;
  if (env.PORT) out.port = Number(env.PORT);
  if (env.SKILLPILOT_DATA_DIR) out.dataDir = env.SKILLPILOT_DATA_DIR;
  if (env.DATABASE_URL) out.databaseUrl = env.DATABASE_URL;
  if (env.SKILLPILOT_LAUNCH_URL) out.launchUrl = env.SKILLPILOT_LAUNCH_URL;
  if (env.SKILLPILOT_SERVER_BUILD) out.serverBuild = env.SKILLPILOT_SERVER_BUILD;
  if (env.SKILLPILOT_LOG) out.logDestination = env.SKILLPILOT_LOG;
  if (env.LOG_LEVEL) out.logLevel = env.LOG_LEVEL;
  if (env.SKILLPILOT_PUBLIC_URL) out.publicUrl = env.SKILLPILOT_PUBLIC_URL;
  if (env.SKILLPILOT_LAUNCH_SECRET) out.launchSecret = env.SKILLPILOT_LAUNCH_SECRET;
  if (env.SKILLPILOT_LOG_HMAC_KEY) out.logHmacKey = env.SKILLPILOT_LOG_HMAC_KEY;
  if (env.SKILLPILOT_CAPABILITY_KEYS) {
    try {
      out.capabilityKeys = JSON.parse(env.SKILLPILOT_CAPABILITY_KEYS) as KeyringConfig;
    } catch {
      throw new Error(
        "SKILLPILOT_CAPABILITY_KEYS must be JSON: " +
          '{"activeKid":"k1","keys":{"k1":"<32 bytes base64url>"}}',
      );
    }
  }
  return out;
}

async function fileConfig(root: string, file: string | undefined): Promise<ConfigFile> {
  const abs = path.resolve(root, file ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch (error) {
    if (!file && (error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`cannot read config file ${abs}`);
  }
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error(`${abs}: expected a JSON object`);
  return parsed as ConfigFile;
}

/** A bind address as the host part of a URL: a wildcard becomes loopback, IPv6 goes in brackets. */
export function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** The start page on the server itself, when no `launchUrl` is configured. */
export function defaultLaunchUrl(host: string, port: number): string {
  return `http://${urlHost(host)}:${port}/start`;
}

/**
 * Resolve the runtime configuration: defaults < config file < environment (HOST, PORT, …) <
 * explicit overrides. Relative paths are resolved against `root`.
 */
export async function loadConfig(
  root: string,
  overrides: ConfigOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<RuntimeConfig> {
  const { configFile, ...flags } = overrides;
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const merged: ConfigFile = {
    ...(await fileConfig(root, configFile)),
    ...envConfig(env),
    ...defined(flags),
  };
  const host = merged.host ?? "127.0.0.1";
  const port = merged.port ?? 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid port ${String(merged.port)}`);
  if (merged.publicUrl !== undefined && !/^https?:\/\/[^/]/.test(merged.publicUrl))
    throw new Error(`publicUrl must be an http(s) URL, got ${merged.publicUrl}`);
  const at = (p: string) => path.resolve(root, p);
  return {
    root,
    host,
    port,
    dataDir: at(merged.dataDir ?? projectLayout.dataDir),
    ...(merged.databaseUrl && { databaseUrl: merged.databaseUrl }),
    allowedHosts: merged.allowedHosts ?? [],
    launchUrl: merged.launchUrl ?? defaultLaunchUrl(host, port),
    lineFile: at(merged.lineFile ?? projectLayout.lineFile),
    allowlistFile: at(merged.allowlistFile ?? projectLayout.allowlistFile),
    curriculumFile: at(merged.curriculumFile ?? projectLayout.curriculumFile),
    sessionTtlSeconds: merged.sessionTtlSeconds ?? 12 * 3600,
    idempotencyTtlSeconds: merged.idempotencyTtlSeconds ?? 3600,
    serverBuild: merged.serverBuild ?? "dev",
    logDestination: merged.logDestination ?? "stdout",
    logLevel: merged.logLevel ?? "info",
    ...(merged.publicUrl && { publicUrl: merged.publicUrl }),
    ...(merged.launchSecret && { launchSecret: merged.launchSecret }),
    ...(merged.logHmacKey && { logHmacKey: merged.logHmacKey }),
    ...(merged.capabilityKeys && { capabilityKeys: merged.capabilityKeys }),
  };
}

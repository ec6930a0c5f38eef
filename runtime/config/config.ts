import path from "node:path";
import { readConfigFile } from "./config-file.js";
import { envConfig, type OtlpProtocol, otlpProtocolEnv } from "./config-env.js";
import type { ClientProfile } from "../auth/client-profiles.js";
import { StartupError } from "./startup-error.js";
import { defaultLogDestination } from "./writable-paths.js";
import type { KeyringConfig } from "../capability/index.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

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
  /**
   * Extra host names accepted in `Host` (on any port) besides the loopback names, the bound host
   * and the `publicUrl` host (DNS-rebinding guard).
   */
  allowedHosts: readonly string[];
  /**
   * Extra exact origins (`scheme://host[:port]`, normalized) a browser may send in `Origin`
   * besides the bound loopback origins and the `publicUrl` origin (DNS-rebinding guard).
   */
  allowedOrigins: readonly string[];
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
  /** pino destination: a file path, "stdout" or "stderr" (default: `defaultLogDestination`). */
  logDestination: string;
  logLevel: string;
  /**
   * The server's public base URL (e.g. https://coach.example.com); the launch answer's `mcpUrl` is
   * built from it. Unset: the bound origin on loopback, the plugin identity's `mcpUrl` otherwise.
   */
  publicUrl?: string;
  /**
   * A provider lane's own public MCP URL by lane id (its OAuth resource), where it is not the
   * server's public origin plus the lane's path: a reverse proxy maps it onto that path.
   */
  lanePublicUrls?: Readonly<Record<string, string>>;
  /**
   * A development server reached through a tunnel: a public URL that is not loopback does not
   * bring the production rules (the plugin's MCP URL, a real issuer, the plugin's issuer).
   */
  developmentTunnel?: boolean;
  /**
   * Bearer secret of the launch API when bound beyond loopback; generated into secrets.json when
   * unset.
   */
  launchSecret?: string;
  /**
   * Bearer token `GET /metrics` demands (at least 32 characters). Unset: `/metrics` is served on
   * loopback only; a server bound beyond loopback answers it 403, so the metrics are never open to
   * the network by default.
   */
  metricsToken?: string;
  /**
   * Key of the log fingerprint (L13); generated into secrets.json when unset, required with
   * `databaseUrl`.
   */
  logHmacKey?: string;
  /**
   * Capability keyring (C11); generated into secrets.json when unset, required with `databaseUrl`.
   */
  capabilityKeys?: KeyringConfig;
  /** OAuth resource server settings (issue #12); absent on loopback: the development issuer. */
  auth?: AuthConfig;
  /** A redacted trace of the server's own MCP traffic is appended here; unset: none. */
  traceFile?: string;
  /** OpenTelemetry spans exported over OTLP/HTTP; unset: none. */
  openTelemetry?: { tracesEndpoint: string; serviceName?: string; protocol?: OtlpProtocol };
  /**
   * How long hosts and shared caches may keep the contract's list results and UI pages under
   * MCP 2026-07-28 (`ttlMs`, `cacheScope`). The contract is public and its pages are
   * content-addressed, so the default is 5 minutes, public.
   */
  listingCache?: { ttlMs?: number; scope?: "public" | "private" };
  /**
   * Experimental, tracking a draft (docs/definition-tags.md): under MCP 2026-07-28, put a definition
   * tag on `tools/list` and each tool's digest in its `_meta`, and decide `tools/call`s that send
   * the tags they hold. Off unless set (env SKILLPILOT_DEFINITION_TAGS=1).
   */
  definitionTags?: boolean;
  /**
   * TEST ONLY: the crash harness's commit delay (ms) of the SQLite store. Set only by the
   * environment variable `SKILLPILOT_TEST_COMMIT_DELAY_MS` (no config file key, no flag); the
   * server warns loudly at start when it is on.
   */
  testCommitDelayMs?: number;
}

/** The `auth` section of the configuration. */
export interface AuthConfig {
  issuer?: string;
  jwksUri?: string;
  jwksFile?: string;
  algorithms?: readonly string[];
  clockSkewSeconds?: number;
  jwksCooldownSeconds?: number;
  jwksCacheMaxAgeSeconds?: number;
  clientProfiles?: readonly ClientProfile[];
  domainVerificationToken?: string;
  /** The start page's client at the issuer, for signing learners in on /start. */
  signIn?: { clientId: string; clientSecret?: string };
  /** Opaque access tokens of some lanes, verified by token introspection (RFC 7662). */
  introspection?: IntrospectionConfig;
}

/** The `auth.introspection` section: the authorization server's RFC 7662 endpoint. */
export interface IntrospectionConfig {
  endpoint: string;
  clientId: string;
  clientSecret?: string;
  clientSecretFile?: string;
  lanes: readonly string[];
  acceptedClientIds?: readonly string[];
  cacheMaxSeconds?: number;
  cacheMaxEntries?: number;
  timeoutMs?: number;
}

/** Keys a config file may set (JSON, `skillpilot.config.json` in the root by default). */
export type ConfigFile = Partial<Omit<RuntimeConfig, "root" | "testCommitDelayMs">>;

/** The environment variable of the crash harness's commit delay (test only). */
export const TEST_COMMIT_DELAY_ENV = "SKILLPILOT_TEST_COMMIT_DELAY_MS";

/** The test-only commit delay from the environment: an integer 1–1000 ms, or undefined. */
function testCommitDelay(env: NodeJS.ProcessEnv): number | undefined {
  const value = env[TEST_COMMIT_DELAY_ENV];
  if (value === undefined || value === "") return undefined;
  const ms = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(ms >= 1 && ms <= 1000))
    throw new StartupError(
      "CONFIG_INVALID",
      `${TEST_COMMIT_DELAY_ENV} (a test-only crash hook) must be 1–1000 ms, got ` +
        `${JSON.stringify(value)}; unset it outside the crash harness`,
    );
  return ms;
}

/** Flag values from the CLI; they win over env, which wins over the file. */
export interface ConfigOverrides extends ConfigFile {
  configFile?: string;
}

const DEFAULT_CONFIG_FILE = projectLayout.configFile;

/** The cache hint of the contract's list results unless configured: 5 minutes, public. */
export const defaultListingCache = { ttlMs: 300_000, scope: "public" } as const;

/** Host values that keep the server on this machine (0.0.0.0, a LAN address … are reachable). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

/** True when the server binds only to loopback. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/**
 * A configured `allowedOrigins` entry as browsers send it in `Origin`: an http(s) URL with nothing
 * but scheme, host and port, in its serialized form (lower case, no default port). Anything else
 * stops the start, naming the entry.
 */
function exactOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.username ||
    url.password ||
    `${url.origin}/` !== url.href ||
    value.endsWith("/")
  )
    throw new StartupError(
      "CONFIG_INVALID",
      `allowedOrigins entries must be exact origins like https://coach.example.com or ` +
        `http://localhost:8080 (scheme, host, optional port; no path or trailing slash), got ` +
        JSON.stringify(value),
    );
  return url.origin;
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
  const fromFile = (await readConfigFile(
    path.resolve(root, configFile ?? DEFAULT_CONFIG_FILE),
    configFile !== undefined,
  )) as ConfigFile & { $schema?: string };
  const { $schema: _schema, ...file } = fromFile;
  const commitDelayMs = testCommitDelay(env);
  const fromEnv = envConfig(env) as ConfigFile;
  const merged: ConfigFile = { ...file, ...fromEnv, ...defined(flags) };
  // Environment settings of the auth section refine the file's, key by key.
  if (file.auth || fromEnv.auth || flags.auth)
    merged.auth = { ...file.auth, ...fromEnv.auth, ...flags.auth };
  if (file.openTelemetry || fromEnv.openTelemetry) {
    const protocol = otlpProtocolEnv(env) ?? file.openTelemetry?.protocol ?? "http/protobuf";
    merged.openTelemetry = { ...file.openTelemetry, ...fromEnv.openTelemetry, protocol } as {
      tracesEndpoint: string;
      protocol: OtlpProtocol;
    };
  }
  if (file.listingCache || fromEnv.listingCache)
    merged.listingCache = { ...file.listingCache, ...fromEnv.listingCache };
  if (file.lanePublicUrls || fromEnv.lanePublicUrls)
    merged.lanePublicUrls = { ...file.lanePublicUrls, ...fromEnv.lanePublicUrls };
  const host = merged.host ?? "127.0.0.1";
  const port = merged.port ?? 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError("PORT_INVALID", `port must be 0–65535, got ${String(merged.port)}`);
  if (merged.publicUrl !== undefined && !/^https?:\/\/[^/]/.test(merged.publicUrl))
    throw new StartupError(
      "CONFIG_INVALID",
      `publicUrl must be an http(s) URL, got ${JSON.stringify(merged.publicUrl)}`,
    );
  const allowedOrigins = (merged.allowedOrigins ?? []).map(exactOrigin);
  const at = (p: string) => path.resolve(root, p);
  return deepFreeze({
    root,
    host,
    port,
    dataDir: at(merged.dataDir ?? projectLayout.dataDir),
    ...(merged.databaseUrl && { databaseUrl: merged.databaseUrl }),
    allowedHosts: merged.allowedHosts ?? [],
    allowedOrigins,
    launchUrl: merged.launchUrl ?? defaultLaunchUrl(host, port),
    lineFile: at(merged.lineFile ?? projectLayout.lineFile),
    allowlistFile: at(merged.allowlistFile ?? projectLayout.allowlistFile),
    curriculumFile: at(merged.curriculumFile ?? projectLayout.curriculumFile),
    sessionTtlSeconds: merged.sessionTtlSeconds ?? 12 * 3600,
    idempotencyTtlSeconds: merged.idempotencyTtlSeconds ?? 3600,
    serverBuild: merged.serverBuild ?? "dev",
    logDestination: ["stdout", "stderr", undefined].includes(merged.logDestination)
      ? (merged.logDestination ?? defaultLogDestination())
      : at(merged.logDestination as string),
    logLevel: merged.logLevel ?? "info",
    ...(merged.publicUrl && { publicUrl: merged.publicUrl }),
    ...(merged.lanePublicUrls && { lanePublicUrls: merged.lanePublicUrls }),
    ...(merged.developmentTunnel && { developmentTunnel: true }),
    ...(merged.definitionTags && { definitionTags: true }),
    ...(merged.launchSecret && { launchSecret: merged.launchSecret }),
    ...(merged.metricsToken && { metricsToken: merged.metricsToken }),
    ...(merged.logHmacKey && { logHmacKey: merged.logHmacKey }),
    ...(merged.capabilityKeys && { capabilityKeys: merged.capabilityKeys }),
    ...(merged.traceFile && { traceFile: at(merged.traceFile) }),
    ...(merged.openTelemetry && { openTelemetry: merged.openTelemetry }),
    listingCache: { ...defaultListingCache, ...merged.listingCache },
    ...(merged.auth && {
      auth: {
        ...merged.auth,
        ...(merged.auth.jwksFile && { jwksFile: at(merged.auth.jwksFile) }),
      },
    }),
    ...(commitDelayMs !== undefined && { testCommitDelayMs: commitDelayMs }),
  });
}

/**
 * The configuration once the listening socket is bound: the port actually bound (for `--port 0`)
 * and a start page derived from it when none was configured. A new frozen object: configuration
 * never changes after the server listens.
 */
export function withBoundPort(config: RuntimeConfig, port: number): RuntimeConfig {
  if (port === config.port) return config;
  const derived = config.launchUrl === defaultLaunchUrl(config.host, config.port);
  return deepFreeze({
    ...config,
    port,
    launchUrl: derived ? defaultLaunchUrl(config.host, port) : config.launchUrl,
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

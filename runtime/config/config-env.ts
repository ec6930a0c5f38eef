import { declaredLanes, primaryLaneId } from "../lanes/lane.js";
import { schemaErrors, valueAt, violation } from "./config-file.js";
import configSchema from "./config.schema.json" with { type: "json" };
import { StartupError } from "./startup-error.js";

/**
 * A provider lane's public-URL variable: `SKILLPILOT_<LANE>_MCP_URL` (`SKILLPILOT_CLAUDE_MCP_URL`,
 * `SKILLPILOT_GEMINI_MCP_URL`); the generic `mcp` lane's is `SKILLPILOT_STANDARD_MCP_URL`.
 */
export function laneUrlEnv(laneId: string): string {
  const name = laneId === "mcp" ? "STANDARD" : laneId.toUpperCase().replaceAll("-", "_");
  return `SKILLPILOT_${name}_MCP_URL`;
}

/**
 * Every environment variable the configuration reads, and the setting (a JSON pointer into the
 * config file's shape) it sets. TEST_COMMIT_DELAY_ENV is apart: it has no config file key.
 */
export const ENV_SETTINGS: readonly (readonly [name: string, pointer: string])[] = [
  ["HOST", "/host"],
  ["PORT", "/port"],
  ["SKILLPILOT_DATA_DIR", "/dataDir"],
  ["DATABASE_URL", "/databaseUrl"],
  ["SKILLPILOT_LAUNCH_URL", "/launchUrl"],
  ["SKILLPILOT_SERVER_BUILD", "/serverBuild"],
  ["SKILLPILOT_LOG", "/logDestination"],
  ["LOG_LEVEL", "/logLevel"],
  ["SKILLPILOT_PUBLIC_URL", "/publicUrl"],
  ...declaredLanes()
    .filter((lane) => lane.id !== primaryLaneId)
    .map((lane) => [laneUrlEnv(lane.id), `/lanePublicUrls/${lane.id}`] as const),
  ["SKILLPILOT_DEVELOPMENT_TUNNEL", "/developmentTunnel"],
  ["SKILLPILOT_LAUNCH_SECRET", "/launchSecret"],
  ["SKILLPILOT_METRICS_TOKEN", "/metricsToken"],
  ["SKILLPILOT_LOG_HMAC_KEY", "/logHmacKey"],
  ["SKILLPILOT_CAPABILITY_KEYS", "/capabilityKeys"],
  ["SKILLPILOT_OAUTH_ISSUER", "/auth/issuer"],
  ["SKILLPILOT_OAUTH_JWKS_URI", "/auth/jwksUri"],
  ["SKILLPILOT_OPENAI_APPS_CHALLENGE", "/auth/domainVerificationToken"],
  ["SKILLPILOT_TRACE_FILE", "/traceFile"],
  ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "/openTelemetry/tracesEndpoint"],
  ["SKILLPILOT_LISTING_TTL_MS", "/listingCache/ttlMs"],
  ["SKILLPILOT_DEFINITION_TAGS", "/definitionTags"],
];

/**
 * The OTLP encodings the span exporter speaks. The variables that choose one matter only when spans
 * are exported: a deployment that sets `OTEL_EXPORTER_OTLP_PROTOCOL=grpc` for other services
 * starts fine with tracing off.
 */
export type OtlpProtocol = "http/protobuf" | "http/json";
const OTLP_PROTOCOLS = configSchema.properties.openTelemetry.properties.protocol
  .enum as readonly OtlpProtocol[];
/** The variables that choose it, the traces-specific one first, and the setting they set. */
export const OTLP_PROTOCOL_ENV: readonly (readonly [name: string, pointer: string])[] = [
  ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "/openTelemetry/protocol"],
  ["OTEL_EXPORTER_OTLP_PROTOCOL", "/openTelemetry/protocol"],
];

/**
 * The span encoding the environment asks for, if any; a value the exporter cannot speak (`grpc`,
 * a typo) is a `StartupError` naming the variable, never a silent fallback.
 */
export function otlpProtocolEnv(env: NodeJS.ProcessEnv): OtlpProtocol | undefined {
  const [name] = OTLP_PROTOCOL_ENV.find(([n]) => env[n]) ?? [];
  if (name === undefined) return undefined;
  const value = env[name]!.trim();
  if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
  throw new StartupError(
    "CONFIG_INVALID",
    `${name} must be ${OTLP_PROTOCOLS.join(" or ")} (spans are exported over OTLP/HTTP), ` +
      `got ${JSON.stringify(value)}`,
  );
}

/** The environment variables the configuration reads that are set (non-empty) in `env`. */
export function configEnvironment(env: NodeJS.ProcessEnv): string[] {
  return ENV_SETTINGS.map(([name]) => name).filter((name) => env[name]);
}

/** Variables whose values are keys: a message about them never quotes the value. */
const SECRET_ENV = new Set([
  "SKILLPILOT_LAUNCH_SECRET",
  "SKILLPILOT_METRICS_TOKEN",
  "SKILLPILOT_LOG_HMAC_KEY",
  "SKILLPILOT_CAPABILITY_KEYS",
]);

/** One environment variable's value as its setting: PORT a number, the keyring JSON, else text. */
function envValue(name: string, value: string): unknown {
  if (name === "PORT") return parsePort(value, "PORT");
  // A number where one is meant; anything else stays text, so the schema check names it.
  if (name === "SKILLPILOT_LISTING_TTL_MS") return /^\d+$/.test(value) ? Number(value) : value;
  if (name === "SKILLPILOT_DEVELOPMENT_TUNNEL" || name === "SKILLPILOT_DEFINITION_TAGS")
    return value === "1" || value === "true"
      ? true
      : value === "0" || value === "false"
        ? false
        : value;
  if (name !== "SKILLPILOT_CAPABILITY_KEYS") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new StartupError(
      "CONFIG_INVALID",
      "SKILLPILOT_CAPABILITY_KEYS must be JSON: " +
        '{"activeKid":"k1","keys":{"k1":"<32 bytes base64url>"}}',
    );
  }
}

/**
 * The settings the environment gives, checked against the config file's schema (the same rules
 * for both sources): a bad value is a `StartupError` naming the variable, never a setting that
 * fails later (a pino level it does not know, a `DATABASE_URL` that is not PostgreSQL's).
 */
export function envConfig(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, pointer] of ENV_SETTINGS) {
    const value = env[name];
    if (!value) continue;
    const [key, sub] = pointer.slice(1).split("/");
    if (sub === undefined) out[key] = envValue(name, value);
    else out[key] = { ...(out[key] as object | undefined), [sub]: envValue(name, value) };
  }
  const problems = schemaErrors(out).map((error) => {
    const [name, pointer] = ENV_SETTINGS.find(
      ([, p]) => error.instancePath === p || error.instancePath.startsWith(`${p}/`),
    ) ?? ["the environment", ""];
    const inner = error.instancePath.slice(pointer.length);
    const value = SECRET_ENV.has(name) ? undefined : valueAt(out, error.instancePath);
    return `${name}${inner && ` ${inner}`} ${violation(error, value)}`;
  });
  if (problems.length > 0)
    throw new StartupError("CONFIG_INVALID", [...new Set(problems)].join("; "));
  return out;
}

/**
 * A port number from a flag or the environment: an integer 0–65535 (0 picks a free port), or a
 * `StartupError` that names the setting and the value given.
 */
export function parsePort(value: string, setting: string): number {
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535)
    throw new StartupError(
      "PORT_INVALID",
      `${setting} must be a port number from 0 to 65535 (0 picks a free port), got ${JSON.stringify(value)}`,
    );
  return port;
}

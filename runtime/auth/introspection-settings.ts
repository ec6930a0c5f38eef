import { readFile } from "node:fs/promises";
import type { IntrospectionConfig } from "../config/config.js";
import { primaryLaneId } from "../lanes/lane.js";

/** Token introspection (RFC 7662) as resolved at start: which lanes verify opaque tokens by it. */
export interface IntrospectionSettings {
  endpoint: string;
  clientId: string;
  /** The client secret, inline or in a file (read when the verifier is built; never logged). */
  secret: { file: string } | { value: string };
  /** The lanes whose tokens are introspected (each lane uses one method: these never take JWTs). */
  lanes: readonly string[];
  acceptedClientIds: readonly string[];
  cacheMaxSeconds: number;
  cacheMaxEntries: number;
  timeoutMs: number;
}

/**
 * Check and resolve `auth.introspection` (the schema has checked its shape): exactly one of
 * `clientSecret` and `clientSecretFile`, declared lanes other than the primary one (the public
 * `/mcp` and the internal adapters verify the issuer's JWTs), and an https endpoint when the
 * server is reached from beyond this machine. Problems are thrown as `invalid` makes them; a
 * message never quotes the secret.
 */
export function resolveIntrospection(
  config: IntrospectionConfig | undefined,
  context: { exposed: string | undefined; declared: readonly string[] },
  invalid: (message: string) => Error,
): IntrospectionSettings | undefined {
  if (!config) return undefined;
  if ((config.clientSecret === undefined) === (config.clientSecretFile === undefined))
    throw invalid("auth.introspection needs exactly one of clientSecret and clientSecretFile");
  for (const lane of config.lanes) {
    if (!context.declared.includes(lane))
      throw invalid(
        `auth.introspection names lane "${lane}", which schemas/lanes.json does not declare ` +
          `(lanes: ${context.declared.join(", ")})`,
      );
    if (lane === primaryLaneId)
      throw invalid(
        `auth.introspection cannot serve the ${primaryLaneId} lane: its tokens are the issuer's JWTs`,
      );
  }
  if (context.exposed && !config.endpoint.startsWith("https://"))
    throw invalid(
      "auth.introspection.endpoint must be an https URL when the server binds beyond loopback " +
        `or is reached through a public URL (${context.exposed})`,
    );
  return {
    endpoint: config.endpoint,
    clientId: config.clientId,
    secret:
      config.clientSecretFile !== undefined
        ? { file: config.clientSecretFile }
        : { value: config.clientSecret as string },
    lanes: [...new Set(config.lanes)],
    acceptedClientIds: config.acceptedClientIds ?? [],
    cacheMaxSeconds: config.cacheMaxSeconds ?? 60,
    cacheMaxEntries: config.cacheMaxEntries ?? 10_000,
    timeoutMs: config.timeoutMs ?? 5000,
  };
}

/** The client secret of the introspection settings (the file's content without its line end). */
export async function introspectionSecret(settings: IntrospectionSettings): Promise<string> {
  if ("value" in settings.secret) return settings.secret.value;
  const text = (await readFile(settings.secret.file, "utf8")).replace(/\r?\n$/, "");
  if (!text) throw new Error("auth.introspection.clientSecretFile is empty");
  return text;
}

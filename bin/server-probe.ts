import { type RuntimeConfig, urlHost } from "../runtime/config/config.js";

/** What answers on the port a command names. */
export type ServerProbe =
  | { kind: "none" }
  | { kind: "other"; origin: string }
  | {
      kind: "skillpilot";
      origin: string;
      /** Where the server keeps its data (loopback servers only; see runtime/storage-id.ts). */
      storageId?: string;
      /** Its OAuth resource and the issuer whose tokens it accepts. */
      resource?: string;
      issuer?: string;
    };

const PROBE_TIMEOUT_MS = 2000;

async function getJson(url: string): Promise<Record<string, unknown> | undefined> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    headers: { accept: "application/json" },
  });
  if (!res.ok) return undefined;
  return (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
}

/** The origin of the server a configuration names: its host (a wildcard as loopback) and port. */
export function serverOrigin(config: Pick<RuntimeConfig, "host" | "port">): string {
  return `http://${urlHost(config.host)}:${config.port}`;
}

/**
 * Ask the server on the configured host and port who it is: `/healthz` (where it keeps its data)
 * and its protected resource metadata (resource and issuer). Port 0 names no server.
 */
export async function probeServer(
  config: Pick<RuntimeConfig, "host" | "port">,
): Promise<ServerProbe> {
  if (config.port === 0) return { kind: "none" };
  const origin = serverOrigin(config);
  let health: Record<string, unknown> | undefined;
  try {
    health = await getJson(`${origin}/healthz`);
  } catch {
    return { kind: "none" };
  }
  if (health?.status !== "ok" || typeof health.contractMajor !== "number")
    return { kind: "other", origin };
  const metadata = await getJson(`${origin}/.well-known/oauth-protected-resource`).catch(
    () => undefined,
  );
  const issuers = metadata?.authorization_servers;
  return {
    kind: "skillpilot",
    origin,
    ...(typeof health.storageId === "string" && { storageId: health.storageId }),
    ...(typeof metadata?.resource === "string" && { resource: metadata.resource }),
    ...(Array.isArray(issuers) && typeof issuers[0] === "string" && { issuer: issuers[0] }),
  };
}

/**
 * Why a command must not act for the server on its port: that server keeps its data elsewhere
 * than `config` (so the command would act on another data directory), or expects another OAuth
 * resource or issuer. `undefined` when nothing answers there or it is the same server.
 */
export async function serverMismatch(
  config: RuntimeConfig,
  probe: ServerProbe,
  expect: { consequence: string; resource?: string; issuer?: string },
): Promise<string | undefined> {
  if (probe.kind !== "skillpilot") return undefined;
  const fix =
    "Run the command the server's start banner printed, or pass the --data-dir, --config " +
    "and environment the server was started with";
  if (probe.storageId !== undefined) {
    const { storageId } = await import("../runtime/storage-id.js");
    if ((await storageId(config)) !== probe.storageId)
      return (
        `the server at ${probe.origin} keeps its data elsewhere than ${config.dataDir}` +
        `${config.databaseUrl ? " and DATABASE_URL" : ""}: this would ${expect.consequence}. ${fix}.`
      );
  }
  if (expect.resource && probe.resource && probe.resource !== expect.resource)
    return (
      `the server at ${probe.origin} is the OAuth resource ${probe.resource}, but this ` +
      `configuration names ${expect.resource}, so the server would refuse its token. ${fix}.`
    );
  if (expect.issuer && probe.issuer && probe.issuer !== expect.issuer)
    return (
      `the server at ${probe.origin} accepts tokens of ${probe.issuer}, not of ${expect.issuer}. ` +
      `${fix}.`
    );
  return undefined;
}

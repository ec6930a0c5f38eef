import type { RuntimeConfig } from "../config/config.js";
import type { RuntimeIdentity } from "../identity.js";
import { type AuthSettings, resolveAuthSettings } from "./auth-settings.js";
import { type DevIssuer, loadDevIssuer } from "./dev-issuer.js";
import { introspectionSecret } from "./introspection-settings.js";
import { createIntrospectionVerifier } from "./introspection-verifier.js";
import { keyResolver } from "./key-source.js";
import { createTokenVerifier, type VerifiedToken } from "./token-verifier.js";
import { PolicyGeneration } from "./verified-token-cache.js";

/** Who is calling: the verified token's subject, client and scopes (never the token itself). */
export type Caller = VerifiedToken;

/** The resource server as the running server uses it. */
export interface AuthRuntime {
  settings: AuthSettings;
  verify(token: string): Promise<VerifiedToken>;
  /** Verify a token for a provider lane: its audience must be that lane's resource. */
  verifyOn(lane: string, token: string): Promise<VerifiedToken>;
  /**
   * From now on refuse tokens of each client issued before the epoch ms given (its profile was
   * re-activated after a retirement: fresh authorization). Set at start, before serving.
   */
  requireFreshAuthorization(after: ReadonlyMap<string, number>): void;
  /**
   * The client policy this instance served under is no longer the database's (another instance
   * took over): every remembered verification is forgotten, on every lane.
   */
  policyChanged(): void;
  /** The local development issuer, when it signs the tokens (loopback only). */
  devIssuer?: DevIssuer;
}

/**
 * Check the OAuth configuration without touching the disk: call before anything is created, so
 * a misconfigured server fails with nothing written.
 */
export function checkAuthConfig(
  config: RuntimeConfig,
  identity: Pick<RuntimeIdentity, "mcpUrl" | "oauthIssuer">,
): AuthSettings {
  return resolveAuthSettings(config, identity);
}

/** Build the token verifier (and load or create the development key, when it is used). */
export async function createAuthRuntime(
  config: RuntimeConfig,
  settings: AuthSettings,
): Promise<AuthRuntime> {
  const devIssuer = settings.development ? await loadDevIssuer(config.dataDir) : undefined;
  const jwks = settings.jwks;
  const keys = keyResolver(
    "development" in jwks
      ? { kind: "static", jwks: (devIssuer as DevIssuer).jwks }
      : "uri" in jwks
        ? {
            kind: "remote",
            jwksUri: jwks.uri,
            cooldownMs: settings.jwksCooldownMs,
            cacheMaxAgeMs: settings.jwksCacheMaxAgeMs,
          }
        : { kind: "file", file: jwks.file },
  );
  // The clients each lane accepts: a profile without `lanes` serves every lane.
  const clientsOf = (lane: string) =>
    new Set(
      settings.profiles.filter((p) => !p.lanes || p.lanes.includes(lane)).map((p) => p.clientId),
    );
  let freshAfter: ReadonlyMap<string, number> = new Map();
  // One generation for every lane's remembered verifications: a policy change forgets them all.
  const generation = new PolicyGeneration();
  const verifierFor = (resource: string, lane: string) => {
    const clientIds = clientsOf(lane);
    return createTokenVerifier({
      issuer: settings.issuer,
      resource,
      keys,
      algorithms: settings.algorithms,
      clockSkewSeconds: settings.clockSkewSeconds,
      clientAllowed: (id) => clientIds.has(id),
      freshAfter: (id) => freshAfter.get(id),
      generation,
    });
  };
  // The public /mcp and the internal adapters are the openai lane.
  const verifier = verifierFor(settings.resource, "openai");
  // A lane configured for token introspection verifies opaque tokens there, and only so.
  const introspection = settings.introspection;
  const secret = introspection ? await introspectionSecret(introspection) : "";
  const introspectorFor = (resource: string) => {
    const i = introspection as NonNullable<typeof introspection>;
    return createIntrospectionVerifier({
      endpoint: i.endpoint,
      issuer: settings.issuer,
      clientId: i.clientId,
      clientSecret: secret,
      resource,
      acceptedClientIds: i.acceptedClientIds,
      cacheMaxSeconds: i.cacheMaxSeconds,
      cacheMaxEntries: i.cacheMaxEntries,
      clockSkewSeconds: settings.clockSkewSeconds,
      timeoutMs: i.timeoutMs,
      generation,
    });
  };
  // One verifier per lane, each for its own resource and clients: a token of one lane serves no
  // other.
  const laneVerifiers = new Map<string, ReturnType<typeof verifierFor>>(
    settings.lanes.map((l) => [
      l.id,
      introspection?.lanes.includes(l.id)
        ? introspectorFor(l.resource)
        : l.resource === settings.resource
          ? verifier
          : verifierFor(l.resource, l.id),
    ]),
  );
  return {
    settings,
    verify: (token) => verifier.verify(token),
    verifyOn: (lane, token) => {
      const v = laneVerifiers.get(lane);
      if (!v) throw new Error(`no provider lane ${lane}`);
      return v.verify(token);
    },
    requireFreshAuthorization: (after) => {
      freshAfter = after;
      generation.advance();
    },
    policyChanged: () => generation.advance(),
    ...(devIssuer && { devIssuer }),
  };
}

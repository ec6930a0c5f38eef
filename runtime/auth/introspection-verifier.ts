import { createHash } from "node:crypto";
import { TokenRejected, type VerifiedToken } from "./token-verifier.js";
import { type PolicyGeneration, VerifiedTokenCache } from "./verified-token-cache.js";

/**
 * The introspection endpoint could not say whether a token is active (down, timed out, a 5xx, a
 * body that is not a JSON object): the request is refused with 503 and `Retry-After`, never served.
 */
export class IntrospectionUnavailable extends Error {
  override name = "IntrospectionUnavailable";
}

/** What an RFC 7662 verifier checks against. */
export interface IntrospectionOptions {
  /** The introspection endpoint (RFC 7662 §2). */
  endpoint: string;
  /**
   * The issuer whose subjects the tokens' `sub` name: the configured authorization server, which
   * the endpoint speaks for (a learner's sessions are bound to issuer and subject).
   */
  issuer: string;
  /** This resource server's client at the authorization server (HTTP Basic, RFC 7662 §2.1). */
  clientId: string;
  clientSecret: string;
  /** The lane's OAuth resource: an `aud` the response names must contain it. */
  resource: string;
  /** Client ids accepted when the response names no `aud` (else such a token is refused). */
  acceptedClientIds: readonly string[];
  /** How long an active answer is remembered at most (never beyond the token's `exp`). */
  cacheMaxSeconds: number;
  /** How many answers are remembered at most. */
  cacheMaxEntries: number;
  clockSkewSeconds: number;
  /** How long one introspection request may take. */
  timeoutMs: number;
  /** The client policy's generation: answers remembered under an earlier one are asked again. */
  generation?: PolicyGeneration;
}

/** The cache key of a token: its SHA-256, so the token itself is never kept. */
const keyOf = (token: string) => createHash("sha256").update(token).digest("base64url");

const scopesOf = (scope: unknown): string[] =>
  typeof scope === "string" ? scope.split(" ").filter(Boolean) : [];

/** Judge an RFC 7662 response object for this resource (or throw `TokenRejected`). */
function judge(
  body: Record<string, unknown>,
  options: IntrospectionOptions,
  now: number,
): VerifiedToken {
  if (body.active !== true) throw new TokenRejected("the access token is not active");
  const { sub, exp, aud, client_id: clientId } = body;
  if (typeof exp !== "number" || !Number.isFinite(exp))
    throw new TokenRejected("the access token has no expiry");
  if (exp + options.clockSkewSeconds < now) throw new TokenRejected("the access token has expired");
  if (typeof sub !== "string" || sub.length === 0 || sub.length > 255)
    throw new TokenRejected("the access token's sub claim is not acceptable");
  const client = typeof clientId === "string" ? clientId : "";
  if (aud !== undefined) {
    const audiences = Array.isArray(aud) ? aud : [aud];
    if (!audiences.includes(options.resource))
      throw new TokenRejected("the access token was not issued for this resource");
  } else if (!options.acceptedClientIds.includes(client))
    throw new TokenRejected("the access token's client is not allowed for this resource");
  return {
    issuer: options.issuer,
    subject: sub,
    clientId: client,
    scopes: scopesOf(body.scope),
    expiresAt: exp,
  };
}

/**
 * An OAuth 2.0 Token Introspection (RFC 7662) check of opaque access tokens: a form POST of the
 * token to the endpoint with HTTP Basic client authentication; the answer must be a JSON object
 * with `active: true`, an `exp` still ahead, a `sub`, and either an `aud` containing this resource
 * or (no `aud`) a client id of `acceptedClientIds`. Active answers are remembered under a hash of
 * the token, until its `exp` and at most `cacheMaxSeconds`, under the client policy generation they
 * were given in (`VerifiedTokenCache`); refusals are not remembered. Anything
 * but a clear answer throws `IntrospectionUnavailable` (fail closed).
 */
export function createIntrospectionVerifier(options: IntrospectionOptions): {
  verify(token: string): Promise<VerifiedToken>;
} {
  const memo = new VerifiedTokenCache<VerifiedToken>({
    maxEntries: options.cacheMaxEntries,
    maxAgeSeconds: options.cacheMaxSeconds,
    ...(options.generation && { generation: options.generation }),
  });
  const basic = `Basic ${Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString("base64")}`;
  return {
    async verify(token) {
      const key = keyOf(token);
      const generation = memo.currentGeneration();
      const known = memo.get(key);
      if (known) return known;
      const now = Date.now() / 1000;
      let response: Response;
      try {
        response = await fetch(options.endpoint, {
          method: "POST",
          headers: {
            authorization: basic,
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
          },
          body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
          redirect: "error",
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch {
        throw new IntrospectionUnavailable("the token introspection endpoint is unreachable");
      }
      let body: unknown;
      try {
        body = response.ok ? await response.json() : undefined;
      } catch {
        body = undefined;
      }
      if (!response.ok || !body || typeof body !== "object" || Array.isArray(body))
        throw new IntrospectionUnavailable(
          `the token introspection endpoint answered ${response.status} without a usable answer`,
        );
      const verified = judge(body as Record<string, unknown>, options, now);
      memo.set(key, verified, generation);
      return verified;
    },
  };
}

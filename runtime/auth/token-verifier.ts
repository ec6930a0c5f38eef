import { errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import { type PolicyGeneration, VerifiedTokenCache } from "./verified-token-cache.js";

/** Asymmetric algorithms only: never `none`, never a shared secret (HS*). */
export const allowedAlgorithms = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;

/** A verified access token: who is calling, through which client, with which scopes. */
export interface VerifiedToken {
  issuer: string;
  subject: string;
  clientId: string;
  scopes: readonly string[];
  /** Epoch seconds. */
  expiresAt: number;
}

/** Why a token was refused, for the challenge's description (never the token itself). */
export class TokenRejected extends Error {
  override name = "TokenRejected";
}

/** What the verifier checks against. */
export interface VerifierOptions {
  issuer: string;
  /** The one OAuth resource (the MCP URL): the only audience accepted (L1). */
  resource: string;
  keys: JWTVerifyGetKey;
  algorithms: readonly string[];
  clockSkewSeconds: number;
  /** Whether a client id belongs to an active client profile right now (L14). */
  clientAllowed(clientId: string): boolean;
  /**
   * Epoch ms from which tokens of a client count (its profile was re-activated after a
   * retirement): a token issued before needs fresh authorization. Undefined: any `iat`.
   */
  freshAfter?(clientId: string): number | undefined;
  /** How many verified tokens are remembered (each until its `exp` at most). */
  memoSize?: number;
  /**
   * The client policy's generation: a token verified under an earlier one is verified again (the
   * clients allowed or the fresh-authorization times may have changed since).
   */
  generation?: PolicyGeneration;
  /** Epoch seconds now (tests move it). */
  now?: () => number;
}

const scopesOf = (payload: JWTPayload): string[] => {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp))
    return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
};

/**
 * `typ` values of an access token: RFC 9068's `at+jwt`, and the plain `JWT` many issuers stamp on
 * theirs. Any other type (a logout token, a DPoP proof, a security event) is another kind of JWT the
 * issuer signs, never an access token. An ID token is kept out by the audience, which for it is a
 * client id, never this resource.
 */
const ACCESS_TOKEN_TYPES = new Set(["at+jwt", "application/at+jwt", "jwt"]);

/**
 * A JWS in compact serialization: three base64url segments without padding (RFC 7515 §2, §7.1).
 * jose's decoder tolerates `=` padding and other noise; a token that is not exactly this form is
 * refused before it is decoded or remembered.
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The client a token was issued to: `client_id` (RFC 9068) or `azp`. Either must be a non-empty
 * string, and when both are present they must agree.
 */
function clientOf(payload: JWTPayload): string {
  const named = [payload.client_id, payload.azp].filter((v) => v !== undefined);
  if (named.length === 0) throw new TokenRejected("the access token names no client");
  if (!named.every((v): v is string => typeof v === "string" && v.length > 0))
    throw new TokenRejected("the access token's client claim is not acceptable");
  if (named.length === 2 && named[0] !== named[1])
    throw new TokenRejected("the access token names two different clients");
  return named[0] as string;
}

function describe(error: unknown): string {
  if (error instanceof TokenRejected) return error.message;
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
    return "the access token is malformed";
  if (error instanceof errors.JWTExpired) return "the access token has expired";
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the access token's ${error.claim} claim is not acceptable`;
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return "the access token's signing algorithm is not accepted";
  if (error instanceof errors.JWKSNoMatchingKey) return "the access token's signing key is unknown";
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return "the access token's signature does not verify";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JOSEError)
    return "the access token could not be verified";
  return "the access token is malformed";
}

/**
 * An OAuth 2.1 resource server's token check: a JWT access token signed by the issuer's keys with
 * an allowed algorithm, issued by exactly the configured issuer, for exactly this resource (a
 * token naming any other audience as well is refused: no dual audience), unexpired (with a small
 * clock skew for `exp`, `nbf` and `iat`), for a subject, through an active client. Verified tokens
 * are remembered (`VerifiedTokenCache`: bounded in number, never at or past their `exp`, only
 * under the client policy generation they were verified in); a remembered token's client is still
 * checked against the active profiles on every request, and anything not remembered is verified in
 * full.
 */
export function createTokenVerifier(options: VerifierOptions): {
  verify(token: string): Promise<VerifiedToken>;
} {
  const clock = options.now ?? (() => Date.now() / 1000);
  const memo = new VerifiedTokenCache<VerifiedToken>({
    maxEntries: options.memoSize ?? 10_000,
    now: clock,
    ...(options.generation && { generation: options.generation }),
  });
  return {
    async verify(token) {
      if (!COMPACT_JWS.test(token)) throw new TokenRejected("the access token is malformed");
      // Keyed by the token itself: the verifier holds it in memory during the call anyway.
      const generation = memo.currentGeneration();
      const known = memo.get(token);
      if (known) {
        if (!options.clientAllowed(known.clientId))
          throw new TokenRejected("the access token's client is not allowed for this resource");
        return known;
      }
      const now = clock();
      let payload: JWTPayload;
      let typ: unknown;
      try {
        ({
          payload,
          protectedHeader: { typ },
        } = await jwtVerify(token, options.keys, {
          issuer: options.issuer,
          audience: options.resource,
          algorithms: [...options.algorithms],
          clockTolerance: options.clockSkewSeconds,
          requiredClaims: ["exp", "iat", "sub"],
          currentDate: new Date(now * 1000),
        }));
      } catch (error) {
        throw new TokenRejected(describe(error));
      }
      // The header is the token's own JSON: `typ` may be any value, not only a string.
      if (
        typ !== undefined &&
        (typeof typ !== "string" || !ACCESS_TOKEN_TYPES.has(typ.toLowerCase()))
      )
        throw new TokenRejected("the access token's typ header names another kind of token");
      if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 255)
        throw new TokenRejected("the access token's sub claim is not acceptable");
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (audiences.length !== 1)
        throw new TokenRejected("the access token names more than one audience");
      if ((payload.iat as number) > now + options.clockSkewSeconds)
        throw new TokenRejected("the access token was issued in the future");
      const clientId = clientOf(payload);
      if (!options.clientAllowed(clientId))
        throw new TokenRejected("the access token's client is not allowed for this resource");
      const fresh = options.freshAfter?.(clientId);
      if (fresh !== undefined && (payload.iat as number) * 1000 < fresh)
        throw new TokenRejected(
          "the access token was issued before its client profile was activated again; " +
            "sign in again for a fresh authorization",
        );
      const verified: VerifiedToken = {
        issuer: payload.iss as string,
        subject: payload.sub as string,
        clientId,
        scopes: scopesOf(payload),
        expiresAt: payload.exp as number,
      };
      memo.set(token, verified, generation);
      return verified;
    },
  };
}

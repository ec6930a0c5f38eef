import {
  type AuthInfo,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import type { Context } from "koa";
import { authInfoOf } from "../auth/auth-info.js";
import type { AuthRuntime } from "../auth/auth-runtime.js";
import { bearerChallenge } from "../auth/challenge.js";
import { TokenRejected } from "../auth/token-verifier.js";
import type { LaneSettings } from "../lanes/lane.js";

/** How many Authorization headers a request carries (raw headers are name, value, name, …). */
export function authorizationHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === "authorization") count++;
  return count;
}

/** RFC 6750 b64token after `Bearer` (header only: never a query parameter or form body). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token of a `Bearer` Authorization header in RFC 6750 form, or undefined. */
export function bearerToken(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
}

/** Why credentials were refused: what the challenge says (never the token). */
export interface CredentialRefusal {
  code: "invalid_request" | "invalid_token";
  description: string;
}

/**
 * A lane's bearer verification on the SDK's `verifyBearerToken`: the token is checked by the
 * lane's own verifier (issuer, keys, this lane's resource as the one audience, client profiles,
 * fresh authorization), then the SDK compares the resource and the expiry. The SDK's expiry check
 * has no clock skew, so the `AuthInfo` carries the last second this server accepts the token (its
 * `exp` plus the configured skew); the caller handlers see keeps the token's own `exp`. A refusal is
 * the SDK's `OAuthError` (`invalid_token`, with our description); anything else is thrown as it is.
 */
export function laneBearerVerification(
  auth: AuthRuntime,
  lane: LaneSettings,
): (token: string) => Promise<AuthInfo> {
  const resource = new URL(lane.resource);
  const skew = auth.settings.clockSkewSeconds;
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token) {
      try {
        const caller = await auth.verifyOn(lane.id, token);
        const info = authInfoOf(token, caller, resource);
        return { ...info, expiresAt: caller.expiresAt + skew };
      } catch (error) {
        if (error instanceof TokenRejected)
          throw new OAuthError(OAuthErrorCode.InvalidToken, error.message);
        throw error;
      }
    },
  };
  const options = {
    verifier,
    expectedResource: resource,
    resourceMetadataUrl: lane.resourceMetadataUrl,
  };
  // The header is rebuilt from the token our stricter RFC 6750 check took out of it.
  return (token) => verifyBearerToken(`Bearer ${token}`, options);
}

/**
 * Answer a request the lane's gate refuses (RFC 6750, RFC 9728 `resource_metadata`): 401 with
 * the challenge (400 for `invalid_request`), and a JSON-RPC error body. Without `refusal` the
 * request carried no credentials: the challenge names only where to sign in and the scope.
 */
export function refuseCredentials(
  ctx: Context,
  lane: LaneSettings,
  scopes: readonly string[],
  refusal?: CredentialRefusal,
): void {
  ctx.status = refusal?.code === "invalid_request" ? 400 : 401;
  ctx.set(
    "WWW-Authenticate",
    bearerChallenge({
      resourceMetadata: lane.resourceMetadataUrl,
      scopes,
      ...(refusal && { error: refusal.code, description: refusal.description }),
    }),
  );
  ctx.body = {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32001,
      message: !refusal
        ? "authentication required"
        : refusal.code === "invalid_request"
          ? "invalid authorization request"
          : "invalid access token",
      // Why, in words (never the token): what the challenge's error_description says, or that no
      // token came at all.
      data: {
        reason:
          refusal?.description ??
          "the request carries no access token (Authorization: Bearer); the WWW-Authenticate " +
            "challenge names where to get one",
      },
    },
  };
}

/**
 * The answer while this instance's client policy lease does not hold (another instance may have
 * taken over): 503, after reading the body out, so closing the connection cannot reset it before
 * the client has read this answer.
 */
export async function refuseNotServing(ctx: Context): Promise<void> {
  await answerUnavailable(ctx, "this server instance no longer serves: retry", 1);
}

/**
 * The answer while the lane's token introspection endpoint cannot say whether a token is active:
 * 503 with `Retry-After` (fail closed: the request is served by nothing), after reading the body out.
 */
export async function refuseIntrospectionDown(ctx: Context): Promise<void> {
  await answerUnavailable(ctx, "the access token cannot be checked right now: retry", 5);
}

async function answerUnavailable(ctx: Context, message: string, retryAfter: number) {
  await new Promise((resolve) => {
    ctx.req.once("end", resolve).once("error", resolve).resume();
  });
  ctx.status = 503;
  ctx.set("Connection", "close");
  ctx.set("Retry-After", String(retryAfter));
  ctx.body = { jsonrpc: "2.0", id: null, error: { code: -32001, message } };
}

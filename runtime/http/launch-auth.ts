import { createHash, timingSafeEqual } from "node:crypto";
import type { Middleware } from "koa";

import { isLoopbackHost } from "../config/config.js";

/**
 * Compare through fixed-length digests, so neither the length nor a prefix of the secret leaks
 * through timing.
 */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Why an Authorization header does not carry `secret` (never quoting the header), or undefined
 * when it does.
 */
function bearerRefusal(header: string, secret: string): string | undefined {
  if (!header) return "the request carries no Authorization header";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return "the Authorization header is not of the form `Bearer <token>`";
  return sameSecret(match[1], secret) ? undefined : "the bearer token is not the expected one";
}

/**
 * Whether a request carries `Authorization: Bearer <secret>`; otherwise it is answered 401 with a
 * challenge of `realm` (its `error_description` says why) and a body of `reason` and why, and
 * false comes back.
 */
export function requireBearer(
  ctx: Parameters<Middleware>[0],
  secret: string,
  realm: string,
  reason: string,
): boolean {
  const why = bearerRefusal(ctx.get("authorization"), secret);
  if (why === undefined) return true;
  ctx.status = 401;
  // RFC 6750 §3.1: a request without credentials gets no error code, only the realm.
  const error = ctx.get("authorization")
    ? `, error="invalid_token", error_description="${why.replace(/[`"\\]/g, "")}"`
    : "";
  ctx.set("WWW-Authenticate", `Bearer realm="${realm}"${error}`);
  ctx.body = { error: "unauthorized", reason: `${reason}: ${why}` };
  return false;
}

/**
 * Guard of `POST /api/sessions` once the server is reachable beyond loopback: the first-party
 * caller (WebGUI backend, start page, scripts) must send `Authorization: Bearer <launch secret>`,
 * otherwise 401 before the body is even parsed. `undefined` (loopback) lets every request through.
 */
export function launchAuth(secret: string | undefined): Middleware {
  return async (ctx, next) => {
    if (
      secret !== undefined &&
      !requireBearer(
        ctx,
        secret,
        "skillpilot-launch",
        "the launch API needs the first-party launch secret as a bearer token",
      )
    )
      return;
    await next();
  };
}

/**
 * The MCP URL a launch answer names, from configuration only (never from the request's Host header,
 * which a proxy or client chooses): the configured public base URL, else the bound loopback origin,
 * else the plugin identity's public `mcpUrl`.
 */
export function launchMcpUrl(
  publicUrl: string | undefined,
  host: string,
  boundOrigin: string,
  identityMcpUrl: string,
): string {
  if (publicUrl) return `${publicUrl.replace(/\/+$/, "")}/mcp`;
  return isLoopbackHost(host) ? `${boundOrigin}/mcp` : identityMcpUrl;
}

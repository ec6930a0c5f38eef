import type { Middleware } from "koa";
import {
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
} from "@modelcontextprotocol/server";

/**
 * DNS-rebinding and cross-site guard, on by default for every route: a Host or Origin outside the
 * allowlist (loopback names, the bound host, configured extras) gets 403 before any handler runs.
 */
export function hostGuard(allowedHostnames: string[]): Middleware {
  const allowed = [...new Set([...localhostAllowedHostnames(), ...allowedHostnames])];
  return async (ctx, next) => {
    const host = validateHostHeader(ctx.get("host") || undefined, allowed);
    const origin = validateOriginHeader(ctx.get("origin") || undefined, allowed);
    if (!host.ok || !origin.ok) {
      ctx.status = 403;
      ctx.body = { error: "forbidden", reason: host.ok ? "origin" : "host" };
      return;
    }
    await next();
  };
}

/**
 * The hostnames a config allows besides loopback: the bound host (unless a wildcard) and extras.
 */
export function configuredHostnames(host: string, extra: string[]): string[] {
  const bound =
    host === "0.0.0.0" || host === "::"
      ? []
      : [host.includes(":") && !host.startsWith("[") ? `[${host}]` : host];
  return [...bound, ...extra];
}

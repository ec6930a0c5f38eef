import { validateHostHeader } from "@modelcontextprotocol/server";
import type { Middleware } from "koa";

/** Names under which the server is reachable on this machine whatever interface it binds. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/**
 * What the DNS-rebinding and cross-site guard accepts. Host names are case-insensitive, so `Host`
 * is compared in lower case; an `Origin` is compared byte for byte (browsers serialize it in lower
 * case, without a path, and without the scheme's default port), so `http://localhost:9999`, a
 * trailing slash, another scheme, upper case or `null` never pass by accident.
 */
export interface OriginPolicy {
  /** Exact `Host` values (`host[:port]`, lower case). */
  readonly hosts: ReadonlySet<string>;
  /** Host names accepted in `Host` on any port (configured `allowedHosts`, e.g. behind a proxy). */
  readonly anyPortHostnames: readonly string[];
  /** Exact `Origin` values (`scheme://host[:port]`). */
  readonly origins: ReadonlySet<string>;
}

/** The settings the policy is derived from (a subset of the runtime config). */
export interface OriginSettings {
  /** The bound interface; a wildcard (`0.0.0.0`, `::`) adds no name of its own. */
  host: string;
  /** The port actually bound. */
  port: number;
  publicUrl?: string;
  /** Provider lanes published on hosts of their own (behind a proxy). */
  lanePublicUrls?: Readonly<Record<string, string>>;
  allowedHosts: readonly string[];
  /** Normalized origins (`new URL(o).origin`), as `loadConfig` stores them. */
  allowedOrigins: readonly string[];
}

/** A bind address as a URL host name: IPv6 in brackets. */
function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** A configured host name in the form a URL parser gives it (what `validateHostHeader` compares). */
function urlHostname(name: string): string {
  const host = bracketed(name).toLowerCase();
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return host;
  }
}

/**
 * The guard's policy: the bound origins (`http://` + each loopback name and the bound host, with
 * the bound port), the origin and host of `publicUrl` and of each lane's public URL, the configured
 * `allowedOrigins`, and the
 * configured `allowedHosts` as host names on any port.
 */
export function originPolicy(settings: OriginSettings): OriginPolicy {
  const wildcard = settings.host === "0.0.0.0" || settings.host === "::";
  const names = new Set<string>([
    ...LOOPBACK_NAMES,
    ...(wildcard ? [] : [bracketed(settings.host).toLowerCase()]),
  ]);
  const hosts = new Set<string>();
  const origins = new Set<string>(settings.allowedOrigins);
  for (const name of names) {
    // A URL on the scheme's default port carries no port, in Host and in Origin alike.
    const authority = settings.port === 80 ? name : `${name}:${settings.port}`;
    hosts.add(authority);
    origins.add(`http://${authority}`);
  }
  for (const publicUrl of [settings.publicUrl, ...Object.values(settings.lanePublicUrls ?? {})]) {
    if (!publicUrl) continue;
    const url = new URL(publicUrl);
    hosts.add(url.host);
    origins.add(url.origin);
  }
  return {
    hosts,
    anyPortHostnames: [...new Set(settings.allowedHosts.map(urlHostname))],
    origins,
  };
}

/**
 * Whether a `Host` value is allowed: exactly one of the bound or published authorities (our
 * port-exact rule), or a configured `allowedHosts` name on any port, which is the SDK's
 * `validateHostHeader` (it parses the value as a URL authority, so a malformed one never passes).
 */
function hostAllowed(policy: OriginPolicy, header: string): boolean {
  return (
    policy.hosts.has(header.toLowerCase()) ||
    (policy.anyPortHostnames.length > 0 &&
      validateHostHeader(header, policy.anyPortHostnames as string[]).ok)
  );
}

/**
 * DNS-rebinding and cross-site guard, on by default for every route: a missing or foreign `Host`,
 * or an `Origin` that is not exactly one of the allowed origins, gets 403 before any handler runs.
 * Requests without `Origin` (non-browser clients) pass on `Host` alone.
 */
export function hostGuard(policy: OriginPolicy): Middleware {
  return async (ctx, next) => {
    const host = ctx.get("host");
    const origin = ctx.get("origin");
    const reason = !host || !hostAllowed(policy, host) ? "host" : undefined;
    const refused = reason ?? (origin !== "" && !policy.origins.has(origin) ? "origin" : undefined);
    if (refused) {
      ctx.status = 403;
      ctx.body = { error: "forbidden", reason: refused };
      return;
    }
    await next();
  };
}

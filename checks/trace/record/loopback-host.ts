/**
 * The recording proxy's DNS-rebinding guard: the same loopback `Host` check the server applies
 * (runtime/http/host-guard.ts, which checks/ may not import), for a proxy that only ever binds
 * 127.0.0.1. A page on a foreign name that resolves to 127.0.0.1 sends its own name as `Host`, so
 * it is refused before anything is forwarded.
 */

/** Names under which a loopback listener is reachable on this machine. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/** The exact `Host` values (lower case, `name:port`; no port on port 80) of a loopback port. */
export function loopbackHosts(port: number): ReadonlySet<string> {
  return new Set(LOOPBACK_NAMES.map((name) => (port === 80 ? name : `${name}:${port}`)));
}

/** Whether a request's `Host` header names this loopback listener (host names are case-insensitive). */
export function isLoopbackHost(hosts: ReadonlySet<string>, header: string | undefined): boolean {
  return header !== undefined && hosts.has(header.toLowerCase());
}

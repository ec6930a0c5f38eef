import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";

/** Where the recording proxy forwards to, and how. */
export interface Upstream {
  url: URL;
  /** Start one forwarded request (TLS with certificate verification for an `https:` upstream). */
  request(options: {
    path: string;
    method: string;
    headers: http.OutgoingHttpHeaders;
  }): http.ClientRequest;
  /** Close the kept-alive connections. */
  close(): void;
}

/** A custom CA file as PEM text; an error that reads as one line when it is not one. */
function caCertificates(file: string): string {
  const pem = readFileSync(file, "utf8");
  if (!pem.includes("-----BEGIN CERTIFICATE-----"))
    throw new Error(`${file}: not a PEM certificate file (--ca-file)`);
  return pem;
}

/**
 * The upstream of a recording proxy: an `http:` or `https:` URL (default ports 80 and 443). An
 * `https:` upstream is reached over TLS with the certificate verified against the system's CAs, or
 * against `caFile` (PEM) when given; connections are kept alive, so a proxied call costs no new
 * handshake. Throws a one-line error for any other URL or an unreadable CA file.
 */
export function openUpstream(raw: string, caFile?: string): Upstream {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--upstream ${raw}: not a URL (expected e.g. https://coach.example/mcp)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`--upstream ${raw}: only http: and https: upstreams can be recorded`);
  if (url.username || url.password)
    throw new Error(`--upstream: credentials in the URL are not forwarded; remove them`);
  const tls = url.protocol === "https:";
  if (caFile && !tls) throw new Error(`--ca-file applies to an https: upstream only`);
  // Kept-alive sockets, the most recently used first (warm), without Nagle's delay.
  const reuse = { keepAlive: true, scheduling: "lifo", noDelay: true } as const;
  const agent = tls
    ? new https.Agent({ ...reuse, ...(caFile && { ca: caCertificates(caFile) }) })
    : new http.Agent(reuse);
  const port = url.port ? Number(url.port) : tls ? 443 : 80;
  // An IPv6 literal is bracketed in a URL, not in a socket address.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return {
    url,
    request: ({ path, method, headers }) =>
      (tls ? https : http).request({
        host: hostname,
        port,
        path,
        method,
        headers,
        agent,
      }),
    close: () => agent.destroy(),
  };
}

/** TLS verification failures (node's codes), which `--ca-file` can fix. */
const CERTIFICATE_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** One line saying why a forwarded request failed before the upstream answered. */
export function upstreamFailure(upstream: URL, error: NodeJS.ErrnoException): string {
  const code = error.code ?? "error";
  const where = `upstream ${upstream.origin}`;
  if (CERTIFICATE_CODES.has(code))
    return (
      `${where}: TLS certificate not trusted (${code}); nothing was forwarded. ` +
      "Pass --ca-file with the CA that signed it"
    );
  if (code === "EPROTO" || /wrong version number|ssl/i.test(error.message))
    return `${where}: TLS handshake failed (${code}): does it serve https on that port?`;
  return `${where}: ${code === "error" ? error.message : code}`;
}

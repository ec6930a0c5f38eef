import http from "node:http";
import type { AddressInfo } from "node:net";
import { defaultTraceLimits } from "../read/trace-limits.js";
import { CapturedBody } from "./captured-body.js";
import { isLoopbackHost, loopbackHosts } from "./loopback-host.js";
import { SseScanner } from "./sse-scanner.js";
import { RecorderThread } from "./recorder-thread.js";
import { openUpstream, upstreamFailure } from "./upstream.js";

/** How a recording proxy runs. */
export interface RecordingOptions {
  /** The MCP endpoint to forward to (`http:` or `https:`). */
  upstream: string;
  /** PEM file of the CA an `https:` upstream's certificate is verified against (default: the system's). */
  caFile?: string;
  /** Loopback port; 0 picks a free one. */
  port: number;
  /** Trace file, appended to (created private, 0600). */
  out: string;
  /** A contract snapshot or tools/list guiding redaction; absent: learned from tools/list. */
  contract?: string;
  /** base64url key of the session fingerprints (the server's log key); default random. */
  fingerprintKey?: string;
  /** Opaque token shapes (global regular expressions) redacted anywhere in a recorded string. */
  tokenPatterns?: readonly RegExp[];
  /** Bytes of one recorded message or SSE event (default 8 MB, `trace check`'s line cap). */
  maxMessageBytes?: number;
  /** Nesting of one recorded message (default 128, `trace check`'s cap). */
  maxDepth?: number;
  /** Where one-line problems go (the upstream unreachable or its certificate not trusted), once each. */
  log?: (line: string) => void;
}

/** A running recording proxy. */
export interface RecordingProxy {
  /** The proxy's URL of the upstream endpoint (same path): give it to the host. */
  url: string;
  origin: string;
  /** Events written (counted once `close` has finished the trace). */
  events(): number;
  /** Stop accepting, finish the trace file. */
  close(): Promise<void>;
}

/** The control path that marks a new learner message (not forwarded). */
export const LEARNER_MESSAGE_PATH = "/.trace/learner-message";

/** Connection-scoped headers, never forwarded in either direction (RFC 9110 §7.6.1). */
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

function endToEnd<T extends http.IncomingHttpHeaders>(headers: T): T {
  const out = { ...headers };
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase());
  for (const name of [...HOP_BY_HOP, ...named]) delete out[name];
  return out;
}

/** The token of an Authorization value (`Bearer x`, `Basic x`, or a bare token). */
const tokenOf = (authorization: string) => authorization.trim().split(/\s+/).pop() ?? "";

/**
 * Start a loopback HTTP proxy in front of any MCP server (`http:` or `https:`, the latter over TLS
 * with the certificate verified) that appends the JSON-RPC messages crossing its MCP path (both
 * directions, JSON and SSE answers, both protocol eras) to a trace file, redacted. Requests whose
 * `Host` does not name the proxy on loopback get 403 and are not forwarded. Everything else is
 * forwarded as it comes, bytes untouched, except `Host`, an `Origin` naming the proxy itself (both
 * become the upstream's), `Accept-Encoding` (dropped, so answers can be read) and hop-by-hop
 * headers. Forwarding never waits on recording: a message that cannot be recorded (too large, too
 * deep, not UTF-8, not JSON) is forwarded whole and becomes an unrecorded event in the trace, and an
 * upstream that fails mid-answer ends the client's answer (502 before its headers, a cut connection
 * after).
 */
export async function startRecordingProxy(options: RecordingOptions): Promise<RecordingProxy> {
  const upstream = openUpstream(options.upstream, options.caFile);
  const maxBytes = options.maxMessageBytes ?? defaultTraceLimits.maxLineBytes;
  const mcpPath = upstream.url.pathname;
  const said = new Set<string>();
  const say = (line: string) => {
    if (said.has(line) || said.size > 100) return;
    said.add(line);
    options.log?.(line);
  };
  /** Recording is best effort: whatever it throws, forwarding goes on. */
  const safely = (record: () => void) => {
    try {
      record();
    } catch (error) {
      say(`a message could not be recorded: ${(error as Error).message.split("\n")[0]}`);
    }
  };
  // Opened before the port is bound: an --out that cannot be opened is an I/O error before
  // anything listens or is printed, and a failed start leaves no empty file behind.
  const recorder = await RecorderThread.start(
    options.out,
    {
      ...(options.contract && { contract: options.contract }),
      ...(options.fingerprintKey && { fingerprintKey: options.fingerprintKey }),
      ...(options.tokenPatterns && { tokenPatterns: options.tokenPatterns }),
      maxDepth: options.maxDepth ?? defaultTraceLimits.maxDepth,
    },
    say,
  );
  let hosts: ReadonlySet<string> = new Set();
  let exchanges = 0;
  /** Tokens already handed to the recorder. */
  const secrets = new Set<string>();

  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = req.url ?? "/";
    const recorded = path.split("?")[0] === mcpPath;
    const authorization = req.headers.authorization;
    const token = authorization ? tokenOf(authorization) : "";
    if (token && !secrets.has(token) && secrets.size < 10_000) {
      secrets.add(token);
      recorder.secret(token);
    }
    const exchange = ++exchanges;
    const headers: http.OutgoingHttpHeaders = { ...endToEnd(req.headers), host: upstream.url.host };
    delete headers["accept-encoding"];
    const origin = req.headers.origin?.toLowerCase();
    if (origin?.startsWith("http://") && hosts.has(origin.slice(7)))
      headers.origin = upstream.url.origin;
    const out = upstream.request({ path, method: req.method ?? "GET", headers });
    const captured =
      recorded && (req.headers["content-type"] ?? "").includes("json")
        ? new CapturedBody(maxBytes)
        : undefined;
    req.pipe(out);
    if (captured) {
      req.on("data", (chunk: Buffer) => captured.add(chunk));
      req.on("end", () => safely(() => recorder.body("client", exchange, captured.body())));
    }
    let clientGone = false;
    const fail = (error: NodeJS.ErrnoException) => {
      // The client went away first: nothing to answer, nothing to report.
      if (clientGone || res.destroyed) return;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const line = upstreamFailure(upstream.url, error);
      say(line);
      res.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(`${line}\n`);
    };
    out.on("error", fail);
    // The client went away: so does its forwarded request.
    res.on("close", () => {
      if (res.writableFinished) return;
      clientGone = true;
      out.destroy();
    });
    req.on("error", () => {
      clientGone = true;
      out.destroy();
    });
    out.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(res);
      answer.on("error", () => res.destroy());
      answer.on("close", () => {
        if (!answer.complete) res.destroy();
      });
      if (!recorded) return;
      const type = answer.headers["content-type"] ?? "";
      if (type.includes("text/event-stream")) {
        const scanner = new SseScanner(maxBytes, (data) =>
          safely(() => recorder.body("server", exchange, data)),
        );
        answer.on("data", (chunk: Buffer) => safely(() => scanner.push(chunk)));
        answer.on("end", () => safely(() => scanner.end()));
      } else if (type.includes("json")) {
        const body = new CapturedBody(maxBytes);
        answer.on("data", (chunk: Buffer) => body.add(chunk));
        answer.on("end", () => safely(() => recorder.body("server", exchange, body.body())));
      }
    });
  };

  const server = http.createServer((req, res) => {
    if (!isLoopbackHost(hosts, req.headers.host)) {
      req.resume();
      res
        .writeHead(403, { "content-type": "application/json" })
        .end(JSON.stringify({ error: "forbidden", reason: "host" }));
      return;
    }
    // Only a path is forwarded: an absolute URL (`GET http://elsewhere/`) would ask the upstream
    // to act as a proxy itself.
    if (!req.url?.startsWith("/")) {
      req.resume();
      res.writeHead(400).end();
      return;
    }
    if (req.method === "POST" && req.url === LEARNER_MESSAGE_PATH) {
      req.resume();
      safely(() => recorder.learnerMessage());
      res.writeHead(204).end();
      return;
    }
    forward(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, "127.0.0.1", () => resolve());
    });
  } catch (error) {
    upstream.close();
    await recorder.discard();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  hosts = loopbackHosts(port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${mcpPath}`,
    origin,
    events: () => recorder.written(),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      upstream.close();
      await recorder.close();
    },
  };
}

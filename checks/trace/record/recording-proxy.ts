import { createHmac, randomBytes } from "node:crypto";
import { createWriteStream, existsSync, openSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  answerMessages,
  type JsonRpcMessage,
  messagesOf,
  traceLine,
  type TraceEvent,
} from "../../../contract-model/trace/trace-event.js";
import {
  proseOutputFields,
  type RedactionOptions,
  TraceRedactor,
} from "../../../contract-model/trace/trace-redaction.js";
import { deriveTurnFacts, type ToolShape } from "../../../contract-model/trace/turn-facts.js";
import { contractFacts } from "../check-trace.js";

/** How a recording proxy runs. */
export interface RecordingOptions {
  /** The MCP endpoint to forward to. */
  upstream: string;
  /** Loopback port; 0 picks a free one. */
  port: number;
  /** Trace file, appended to (created private, 0600). */
  out: string;
  /** A contract snapshot or tools/list guiding redaction; absent: learned from tools/list. */
  contract?: string;
  /** base64url key of the session fingerprints (the server's log key); default random. */
  fingerprintKey?: string;
}

/** A running recording proxy. */
export interface RecordingProxy {
  /** The proxy's URL of the upstream endpoint (same path): give it to the host. */
  url: string;
  origin: string;
  /** Events written so far. */
  events(): number;
  /** Stop accepting, finish the trace file. */
  close(): Promise<void>;
}

/** The control path that marks a new learner message (not forwarded). */
export const LEARNER_MESSAGE_PATH = "/.trace/learner-message";

/** The log fingerprint of a session id: HMAC-SHA-256 under `key`, 16 hex characters. */
export function sessionFingerprint(key: Buffer, sessionId: string): string {
  return createHmac("sha256", key).update(sessionId, "utf8").digest("hex").slice(0, 16);
}

/**
 * Start a loopback HTTP proxy in front of any MCP server that appends every JSON-RPC message
 * crossing it (both directions, JSON and SSE answers, both protocol eras) to a trace file,
 * redacted (trace-redaction.ts). Requests are forwarded unchanged except `Host`, an `Origin`
 * naming the proxy itself (both become the upstream's) and `Accept-Encoding` (dropped, so answers
 * can be read); answers are streamed back as they come.
 */
export async function startRecordingProxy(options: RecordingOptions): Promise<RecordingProxy> {
  const upstream = new URL(options.upstream);
  const key = options.fingerprintKey
    ? Buffer.from(options.fingerprintKey, "base64url")
    : randomBytes(32);
  const redaction: { -readonly [K in keyof RedactionOptions]: RedactionOptions[K] } = {
    fingerprint: (sid) => sessionFingerprint(key, sid),
  };
  const learn = async (tools: ToolShape[], envelopes?: Record<string, unknown>) => {
    const facts = deriveTurnFacts(tools, envelopes);
    if (facts.sessionField) redaction.sessionField = facts.sessionField;
    redaction.proseOutputs = await proseOutputFields(tools);
  };
  if (options.contract && existsSync(options.contract)) {
    const json = JSON.parse(readFileSync(options.contract, "utf8")) as {
      tools?: ToolShape[];
      envelopes?: Record<string, unknown>;
    };
    if (typeof contractFacts(json) !== "string" && Array.isArray(json.tools))
      await learn(json.tools, json.envelopes);
  }
  const redactor = new TraceRedactor(redaction);
  // Opened before the port is bound, synchronously: an --out that cannot be opened is an I/O
  // error before anything listens or is printed, and a failed start leaves no empty file behind.
  const existed = existsSync(options.out);
  const fd = openSync(options.out, "a", 0o600);
  const file = createWriteStream("", { fd });
  let written = 0;
  const write = (event: TraceEvent) => {
    file.write(traceLine(event));
    written++;
  };
  const record = (from: "client" | "server", messages: JsonRpcMessage[]) => {
    for (const message of messages) {
      const tools = (message.result as { tools?: unknown } | undefined)?.tools;
      if (from === "server" && Array.isArray(tools) && !options.contract)
        void learn(tools as ToolShape[]);
      write({ at: new Date().toISOString(), from, message: redactor.redact(message, from) });
    }
  };
  let self = "";
  const server = http.createServer((req, res) => {
    if (req.method === "POST" && req.url === LEARNER_MESSAGE_PATH) {
      req.resume();
      write({ at: new Date().toISOString(), learnerMessage: true });
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if ((req.headers["content-type"] ?? "").includes("json") && body.length > 0) {
        try {
          record("client", messagesOf(JSON.parse(body.toString("utf8"))));
        } catch {
          // not JSON: forwarded, not recorded
        }
      }
      const headers = { ...req.headers, host: upstream.host };
      delete headers["accept-encoding"];
      if (headers.origin === `http://${self}`) headers.origin = upstream.origin;
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const type = answer.headers["content-type"];
          const sse = typeof type === "string" && type.includes("text/event-stream");
          let text = "";
          answer.setEncoding("utf8");
          answer.on("data", (chunk: string) => {
            res.write(chunk);
            text += chunk;
            if (!sse) return;
            const end = text.lastIndexOf("\n\n");
            if (end < 0) return;
            record("server", answerMessages(type, text.slice(0, end + 2)));
            text = text.slice(end + 2);
          });
          answer.on("end", () => {
            res.end();
            if (text.trim()) record("server", answerMessages(type, text));
          });
        },
      );
      forward.on("error", () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      forward.end(body);
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, "127.0.0.1", () => resolve());
    });
  } catch (error) {
    await new Promise<void>((resolve) => file.end(resolve));
    if (!existed) rmSync(options.out, { force: true });
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  self = `127.0.0.1:${port}`;
  const origin = `http://${self}`;
  return {
    url: `${origin}${upstream.pathname}`,
    origin,
    events: () => written,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await new Promise<void>((resolve) => file.end(resolve));
    },
  };
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo, McpHttpHandler } from "@modelcontextprotocol/server";
import { answerWritten } from "../mcp/traffic-tap.js";
import { MAX_BODY_BYTES, type McpBody, type UnreadBody } from "./request-body.js";

/**
 * The Node side of an SDK MCP handler's web-standard `fetch` face, doing the conversion
 * `toNodeHandler` (@modelcontextprotocol/node) does at a fraction of its cost, and with the same
 * answers. That adapter rebuilds every request as a web `Request` with a body stream (which the SDK
 * then clones, tees and reads again), and writes every answer back by iterating its body stream,
 * chunked: together about a fifth of an echo call's CPU. Here the body the edge read and parsed
 * once (`readMcpBody`) is handed over as the documented `parsedBody` with a bodyless `Request` (the
 * SDK reads neither the body nor a clone then), and a JSON answer goes out in one write with its
 * length. Streamed answers (`text/event-stream`) are piped chunk by chunk with back-pressure, as
 * the adapter does; any other body is forwarded as the text it was, for the SDK to answer.
 */

/** JSON-RPC error answer written straight to the socket (the bridge's own refusals). */
function writeRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: string | number | null,
  extraHeaders: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...extraHeaders,
  });
  res.end(body);
}

/** The id to echo on an error answer: a single request's string or number id, else null. */
function echoableId(body: unknown): string | number | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (typeof method !== "string") return null;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

/** Write the handler's answer: a JSON body in one piece, a stream chunk by chunk. */
async function writeResponse(
  res: ServerResponse,
  response: Response,
  abort: AbortController,
  finish: () => void,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (response.body === null) {
    finish();
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    const body = Buffer.from(await response.arrayBuffer());
    finish();
    headers["content-length"] = String(body.length);
    res.writeHead(response.status, headers);
    res.end(body);
    // Traffic taps (when configured) see the answer as written: it is read only here.
    answerWritten(response, body);
    return;
  }
  res.writeHead(response.status, headers);
  let drained: (() => void) | undefined;
  const onDrain = () => {
    drained?.();
    drained = undefined;
  };
  res.on("drain", onDrain);
  const closed = new Promise<void>((resolve) =>
    abort.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (abort.signal.aborted) break;
      if (!res.write(chunk))
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), closed]);
    }
  } catch {
    // The stream failed or the client went away: end what was sent.
  }
  finish();
  res.off("drain", onDrain);
  res.end();
}

/** The answer to a body that could not be read: 413 over the limit (closing), else 500. */
export function writeUnreadBody(res: ServerResponse, unread: UnreadBody): void {
  if ("failed" in unread) writeRpcError(res, 500, -32603, "Internal server error", null);
  else
    writeRpcError(
      res,
      413,
      -32000,
      `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`,
      null,
      { connection: "close" },
    );
}

/**
 * Serve one Node request with `handler.fetch`, its body as the edge read it: parsed JSON goes as
 * `parsedBody`, text as the `Request`'s body. `authInfo`: the verified token, if any. `onRequest`
 * sees the web `Request` before the handler does. A request whose client goes away before the
 * answer is written is aborted (its `Request.signal`), as with `toNodeHandler`.
 */
export async function serveFetch(
  handler: Pick<McpHttpHandler, "fetch">,
  req: IncomingMessage,
  res: ServerResponse,
  body: McpBody,
  authInfo?: AuthInfo,
  onRequest?: (request: Request) => void,
): Promise<void> {
  let finished = false;
  const finish = () => {
    finished = true;
  };
  const abort = new AbortController();
  res.once("close", () => {
    if (!finished) abort.abort();
  });
  if (res.destroyed) abort.abort();
  const parsed = body.kind === "json" ? body.value : undefined;
  let response: Response;
  try {
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: (req.method ?? "GET").toUpperCase(),
      headers: webHeaders(req),
      signal: abort.signal,
      ...(body.kind === "text" && { body: body.text }),
    });
    onRequest?.(request);
    response = await handler.fetch(request, {
      ...(authInfo !== undefined && { authInfo }),
      ...(parsed !== undefined && { parsedBody: parsed }),
    });
  } catch {
    finish();
    return writeRpcError(res, 500, -32603, "Internal server error", echoableId(parsed));
  }
  await writeResponse(res, response, abort, finish);
}

import type { IncomingMessage } from "node:http";
import { DEFAULT_MAX_REQUEST_BODY_SIZE, isJsonContentType } from "@modelcontextprotocol/server";

/**
 * What an MCP request's body is, read from the socket once: nothing (GET, HEAD, an empty body),
 * parsed JSON (a JSON `POST`, with the text it was parsed from), or text to hand on as it was (any
 * other type, or JSON that does not parse: the SDK answers it as it answers it from a stream).
 */
export type McpBody =
  | { kind: "none" }
  | { kind: "json"; text: string; value: unknown }
  | { kind: "text"; text: string; unparsableJson: boolean };

/** Why a body could not be read: over the limit, or the stream failed. */
export type UnreadBody = { tooLarge: true } | { failed: true };

/** The one limit on an MCP request body: the SDK's own (4 MiB). */
export const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

/**
 * The request body as text, at most `limit` bytes (a declared Content-Length over it is refused
 * unread). A leading byte order mark is dropped, as the SDK's own decoder drops it.
 */
function readText(req: IncomingMessage, limit: number): Promise<{ text: string } | UnreadBody> {
  if (Number(req.headers["content-length"]) > limit) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else {
        req.off("data", onData);
        req.resume();
        resolve({ tooLarge: true });
      }
    };
    req.on("data", onData);
    req.once("error", () => resolve({ failed: true }));
    req.once("end", () => {
      if (received > limit) return;
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8");
      resolve({ text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
    });
  });
}

/** Read (once, at most `MAX_BODY_BYTES`) and, for a JSON `POST`, parse the body of a request. */
export async function readMcpBody(req: IncomingMessage): Promise<McpBody | UnreadBody> {
  const method = (req.method ?? "GET").toUpperCase();
  if (method === "GET" || method === "HEAD") return { kind: "none" };
  const read = await readText(req, MAX_BODY_BYTES);
  if (!("text" in read)) return read;
  const { text } = read;
  if (text.length === 0) return { kind: "none" };
  if (method !== "POST" || !isJsonContentType(req.headers["content-type"] ?? null))
    return { kind: "text", text, unparsableJson: false };
  try {
    return { kind: "json", text, value: JSON.parse(text) };
  } catch {
    return { kind: "text", text, unparsableJson: true };
  }
}

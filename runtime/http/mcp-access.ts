import { jsonShape } from "../mcp/json-shape.js";

/**
 * JSON-RPC methods served without a token. The host lists tools and prefetches the UI pages before
 * the learner has linked an account, and none of these carries learner data (MCP Apps per-tool
 * authorization); every tool call needs a token. Anything not listed needs one too.
 */
const PUBLIC_METHODS = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  // Every resource is a content-addressed UI page (no learner data); an unknown URI is not found.
  "resources/read",
]);

/** Who may see a request without a token. */
type Access = "public" | "tool-call" | "protected";

/** Classify a parsed JSON-RPC body (one message or a batch); anything unexpected is protected. */
export function classifyMcpRequest(body: unknown): Access {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return "protected";
  let toolCall = false;
  for (const message of messages) {
    if (!message || typeof message !== "object") return "protected";
    const { method, id } = message as { method?: unknown; id?: unknown };
    // A response to a server request has an id and a result or error, and no method.
    if (method === undefined && id !== undefined && ("result" in message || "error" in message))
      continue;
    if (typeof method !== "string") return "protected";
    if (method.startsWith("notifications/") || PUBLIC_METHODS.has(method)) continue;
    if (method === "tools/call") {
      toolCall = true;
      continue;
    }
    return "protected";
  }
  return toolCall ? "tool-call" : "public";
}

/** JSON text that starts with an object or an array (RFC 7159 whitespace allowed before). */
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/** A `"__proto__":` key in JSON text, also spelled with escapes (the cheap test before the walk). */
const SUSPECT_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/**
 * Whether a body without a token is a parse error (HTTP 400, JSON-RPC -32700): a request without
 * a token is parsed strictly, as the gate has always parsed it: the body must be a JSON object or
 * array, and may hold no own `__proto__` key anywhere (with a token, such a key is the message
 * policy's to judge). The walk runs only when the text holds such a key at all.
 */
export function anonymousParseError(text: string, value: unknown): boolean {
  if (!OBJECT_OR_ARRAY.test(text)) return true;
  return SUSPECT_KEY.test(text) && jsonShape(value, Number.POSITIVE_INFINITY).prototypeKey;
}

import { jsonShape, MAX_JSON_DEPTH } from "./json-shape.js";
import { paramsProblem } from "./request-params.js";

/**
 * Protocol revisions whose HTTP transport takes a JSON-RPC batch (a JSON array of messages): 2025-03-26
 * added batching and 2025-06-18 removed it again; a request without an `MCP-Protocol-Version` header
 * is taken as 2025-03-26, as the transport specification says.
 */
const BATCHING_REVISIONS = new Set(["2024-11-05", "2025-03-26"]);

/** The `_meta` key in which a 2026-07-28 request names its revision. */
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/** A POSTed body the endpoint refuses before any handler runs: HTTP 400 with this JSON-RPC error. */
export interface MessageRefusal {
  code: number;
  message: string;
}

/** JSON-RPC error codes of the refusals. */
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/** The revision a message names in its `_meta`, if any. */
function metaRevision(message: unknown): unknown {
  const params = (message as { params?: unknown } | null)?.params;
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === "object" && meta !== null
    ? (meta as Record<string, unknown>)[META_PROTOCOL_VERSION]
    : undefined;
}

const invalidRequest = (why: string): MessageRefusal => ({
  code: INVALID_REQUEST,
  message: `Invalid Request: ${why}`,
});

/** A batch under a revision without batching (the name is caller text: quoted and cut). */
const noBatches = (revision: unknown): MessageRefusal =>
  invalidRequest(
    `protocol revision ${typeof revision === "string" ? revision.slice(0, 32) : "(unknown)"} ` +
      "has no JSON-RPC batches; send one message per request",
  );

/** Why a batch is refused under `revision` (undefined: it is served). */
function batchRefusal(batch: unknown[], revision: string): MessageRefusal | undefined {
  if (!BATCHING_REVISIONS.has(revision)) return noBatches(revision);
  if (batch.length === 0) return invalidRequest("empty batch");
  const ids = new Set<string>();
  for (const message of batch) {
    if (typeof message !== "object" || message === null || Array.isArray(message))
      return invalidRequest("a batch holds message objects");
    const meta = metaRevision(message);
    if (meta !== undefined && (typeof meta !== "string" || !BATCHING_REVISIONS.has(meta)))
      return noBatches(meta);
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (method === undefined || id === undefined || id === null) continue;
    // Answers are matched to requests by id: two requests with one id could not both be answered.
    const key = `${typeof id}:${String(id)}`;
    if (ids.has(key)) return invalidRequest("two requests of the batch share an id");
    ids.add(key);
  }
  return undefined;
}

/** The messages of a body: a batch's items, or the one message. */
function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** What the message policy says of a parsed body. */
export type MessageVerdict =
  | { refusal: MessageRefusal }
  | {
      refusal?: undefined;
      /**
       * A `tools/call` of the body carries an own `__proto__` key anywhere (its arguments, its
       * params, its `_meta`): the SDK copies those objects without the key, so the dispatcher must
       * refuse the call (INVALID_INPUT) rather than serve it without the key.
       */
      toolCallPrototypeKey: boolean;
    };

/**
 * The message policy of a parsed JSON-RPC body, run once at the edge before the SDK sees it. The
 * body is refused (HTTP 400 with the JSON-RPC error) when it is:
 * - nested deeper than `MAX_JSON_DEPTH` levels;
 * - a batch under a protocol revision without batching (every revision from 2025-06-18 on), an empty
 *   batch, one whose items are not message objects, or one in which two requests share an id;
 * - a request of a method the SDK answers itself (initialize, the list methods, resources/read)
 *   whose params that method does not take (-32602, where the SDK would answer -32603);
 * - a message other than `tools/call` with an own `__proto__` key anywhere (the SDK's schemas would
 *   drop it silently); a `tools/call` that carries one is served, and refused as a tool result
 *   (`toolCallPrototypeKey`).
 * `protocolVersion` is the request's `MCP-Protocol-Version` header (null when absent).
 */
export function messageVerdict(body: unknown, protocolVersion: string | null): MessageVerdict {
  const shape = jsonShape(body);
  if (shape.tooDeep)
    return { refusal: invalidRequest(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`) };
  if (Array.isArray(body)) {
    const refusal = batchRefusal(body, protocolVersion ?? "2025-03-26");
    if (refusal) return { refusal };
  }
  for (const message of messagesOf(body)) {
    const meta = metaRevision(message);
    const problem = paramsProblem(message, typeof meta === "string" ? meta : protocolVersion);
    if (problem)
      return { refusal: { code: INVALID_PARAMS, message: `Invalid params: ${problem}` } };
  }
  if (!shape.prototypeKey) return { toolCallPrototypeKey: false };
  let toolCallPrototypeKey = false;
  for (const message of messagesOf(body)) {
    if (!jsonShape(message).prototypeKey) continue;
    if ((message as { method?: unknown } | null)?.method !== "tools/call")
      return {
        refusal: {
          code: INVALID_PARAMS,
          message: "Invalid params: an own __proto__ key is not allowed",
        },
      };
    toolCallPrototypeKey = true;
  }
  return { toolCallPrototypeKey };
}

/** The HTTP answer to a refused body: 400 with the JSON-RPC error (id null: no message is served). */
export function refusalBody(refusal: MessageRefusal): {
  jsonrpc: "2.0";
  id: null;
  error: MessageRefusal;
} {
  return { jsonrpc: "2.0", id: null, error: refusal };
}

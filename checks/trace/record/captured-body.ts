import type {
  JsonRpcMessage,
  UnrecordedReason,
} from "../../../contract-model/trace/trace-event.js";
import { nestsDeeperThan } from "../read/json-depth.js";

/**
 * A copy of a body as it streams past, kept only up to `cap` bytes: beyond, the copy is dropped
 * (the body itself keeps flowing to its receiver) and the body is `tooLarge` for the recording.
 */
export class CapturedBody {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private over = false;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    if (this.over) return;
    this.bytes += chunk.length;
    if (this.bytes > this.cap) {
      this.over = true;
      this.chunks = [];
    } else this.chunks.push(chunk);
  }

  /** The body, or why it was not kept. */
  body(): Buffer | "tooLarge" {
    return this.over ? "tooLarge" : Buffer.concat(this.chunks, this.bytes);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

const isJsonRpc = (m: unknown): m is JsonRpcMessage =>
  typeof m === "object" &&
  m !== null &&
  !Array.isArray(m) &&
  (m as JsonRpcMessage).jsonrpc === "2.0";

/**
 * The JSON-RPC 2.0 messages of one body (a message or a batch), or why they cannot be recorded:
 * bytes that are not UTF-8 or not JSON, or a value nesting deeper than `maxDepth` (measured without
 * recursion, so no later walk meets it). JSON that is not JSON-RPC yields no messages.
 */
export function decodeMessages(
  body: Buffer,
  maxDepth: number,
): { messages: JsonRpcMessage[] } | { unrecorded: UnrecordedReason } {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { unrecorded: "notUtf8" };
  }
  if (text.trim() === "") return { messages: [] };
  let value: unknown;
  try {
    // V8's JSON.parse does not recurse: any nesting parses, and is measured next.
    value = JSON.parse(text);
  } catch {
    return { unrecorded: "notJson" };
  }
  // A message's own depth is the body's minus the batch array around it.
  if (nestsDeeperThan(value, Array.isArray(value) ? maxDepth : maxDepth - 1))
    return { unrecorded: "tooDeep" };
  return { messages: (Array.isArray(value) ? value : [value]).filter(isJsonRpc) };
}

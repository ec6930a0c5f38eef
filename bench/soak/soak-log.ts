import type { RawAnswer } from "../runtime/raw-mcp-client.js";

/** A write the server answered as saved: its receipt, to find in the database at the end. */
export interface AnsweredWrite {
  sessionId: string;
  stateVersion: number;
}

/**
 * What an answer says, as one code: `OK`, the contract's error code of an error result
 * (`STATE_CONFLICT`, …), `RPC_<code>` for a JSON-RPC error, `HTTP_<status>` for a 5xx or a body
 * that is not JSON-RPC.
 */
export function answerCode({ status, message }: RawAnswer): string {
  if (status >= 500 || !message) return `HTTP_${status}`;
  if (message.error) return `RPC_${message.error.code}`;
  const result = message.result;
  if (!result) return `HTTP_${status}`;
  if (!result.isError) return "OK";
  const text = (result.content?.[0] as { text?: unknown } | undefined)?.text;
  return /^([A-Z_]+):/.exec(String(text))?.[1] ?? "UNKNOWN";
}

/**
 * Everything the soak saw, call by call: the latency of every measured call in order (the drift
 * compares the first and last tenth), each outcome by tool and code, and every receipt the server
 * answered with (warm-up and set-up writes included).
 */
export class SoakLog {
  /** Whether calls now count as measured (after the warm-up). */
  measuring = false;
  /** Calls before measuring started (set-up and warm-up). */
  warmupCalls = 0;
  /** Measured calls so far. */
  measuredCalls = 0;
  /** Calls that failed on the wire (connection refused or reset), all phases. */
  transportErrors = 0;
  /** Measured latencies in ms, in the order the calls finished. */
  readonly latencies: Float32Array;
  /** Outcomes of measured calls: tool → code → count. */
  readonly outcomes = new Map<string, Map<string, number>>();
  /** Receipts the server answered with: receipt id → the write it confirms. */
  readonly receipts = new Map<string, AnsweredWrite>();

  constructor(capacity: number) {
    this.latencies = new Float32Array(capacity);
  }

  /** Calls made in the current phase. */
  calls(): number {
    return this.measuring ? this.measuredCalls : this.warmupCalls;
  }

  /** Record one answered call. */
  record(tool: string, answer: RawAnswer, ms: number, sessionId: unknown): void {
    const receipt = answer.message?.result?.isError
      ? undefined
      : (answer.message?.result?.structuredContent?.receipt as
          | { receiptId: string; stateVersion: number }
          | undefined);
    if (receipt && typeof sessionId === "string")
      this.receipts.set(receipt.receiptId, { sessionId, stateVersion: receipt.stateVersion });
    if (!this.measuring) {
      this.warmupCalls++;
      return;
    }
    if (this.measuredCalls < this.latencies.length) this.latencies[this.measuredCalls] = ms;
    this.measuredCalls++;
    const code = answerCode(answer);
    const codes = this.outcomes.get(tool) ?? new Map<string, number>();
    codes.set(code, (codes.get(code) ?? 0) + 1);
    this.outcomes.set(tool, codes);
  }
}

import { createWriteStream, type WriteStream } from "node:fs";
import { type JsonRpcMessage, traceLine } from "../../contract-model/trace/trace-event.js";
import { proseOutputFields, TraceRedactor } from "../../contract-model/trace/trace-redaction.js";
import type { ToolShape, TurnFacts } from "../../contract-model/trace/turn-facts.js";
import { logFingerprint } from "./session-fingerprint.js";

/**
 * The server's trace of its own MCP traffic (off by default; config `traceFile`): every JSON-RPC
 * message it received and answered, in the trace format `skillpilot trace check` reads, redacted
 * as `trace record` redacts (session ids as the call log's fingerprint). A server sees no learner
 * messages: its trace is judged with turns inferred from pauses.
 */
export class SelfTrace {
  private constructor(
    private readonly file: WriteStream,
    private readonly redactor: TraceRedactor,
  ) {}

  /** Open (append, created 0600) the trace file of a server with its contract's tools. */
  static async open(
    path: string,
    logHmacKey: string,
    facts: TurnFacts,
    tools: readonly ToolShape[],
  ): Promise<SelfTrace> {
    const redactor = new TraceRedactor({
      fingerprint: (sid) => logFingerprint(logHmacKey, sid),
      ...(facts.sessionField && { sessionField: facts.sessionField }),
      proseOutputs: await proseOutputFields(tools),
    });
    const file = createWriteStream(path, { flags: "a", mode: 0o600 });
    await new Promise<void>((resolve, reject) => {
      file.once("open", () => resolve());
      file.once("error", reject);
    });
    return new SelfTrace(file, redactor);
  }

  /** Append messages received (`client`) or sent (`server`). */
  record(from: "client" | "server", messages: readonly JsonRpcMessage[]): void {
    const at = new Date().toISOString();
    for (const message of messages)
      this.file.write(traceLine({ at, from, message: this.redactor.redact(message, from) }));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.file.end(resolve));
  }
}

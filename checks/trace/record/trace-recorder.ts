import { createHmac, randomBytes } from "node:crypto";
import { createWriteStream, existsSync, readFileSync, type WriteStream } from "node:fs";
import {
  type JsonRpcMessage,
  traceLine,
  type TraceEvent,
  type UnrecordedReason,
} from "../../../contract-model/trace/trace-event.js";
import {
  proseOutputFields,
  type RedactionOptions,
  TraceRedactor,
} from "../../../contract-model/trace/trace-redaction.js";
import { deriveTurnFacts, type ToolShape } from "../../../contract-model/trace/turn-facts.js";
import { contractFacts } from "../check-trace.js";
import { decodeMessages } from "./captured-body.js";

/** What a recorder redacts with. */
export interface RecorderOptions {
  /** A contract snapshot or tools/list guiding redaction; absent: learned from tools/list. */
  contract?: string;
  /** base64url key of the session fingerprints (the server's log key); default random. */
  fingerprintKey?: string;
  /** Opaque token shapes (global regular expressions) redacted anywhere in a string. */
  tokenPatterns?: readonly RegExp[];
  /** Nesting of one recorded message (deeper ones become unrecorded events). */
  maxDepth: number;
}

/** The log fingerprint of a session id: HMAC-SHA-256 under `key`, 16 hex characters. */
export function sessionFingerprint(key: Buffer, sessionId: string): string {
  return createHmac("sha256", key).update(sessionId, "utf8").digest("hex").slice(0, 16);
}

/**
 * The trace file of a recording proxy: JSON-RPC messages redacted as they are recorded, learner
 * marks, and an unrecorded event for each message that was forwarded but could not be recorded.
 */
export class TraceRecorder {
  private written = 0;
  private learnedFromTraffic = false;

  private constructor(
    private readonly file: WriteStream,
    private readonly redactor: TraceRedactor,
    private readonly redaction: { -readonly [K in keyof RedactionOptions]: RedactionOptions[K] },
    private readonly options: RecorderOptions,
  ) {}

  /**
   * Load the contract's redaction facts; the trace is appended to the open file `fd` (which stays
   * open: its opener closes it).
   */
  static async open(options: RecorderOptions, fd: number): Promise<TraceRecorder> {
    const key = options.fingerprintKey
      ? Buffer.from(options.fingerprintKey, "base64url")
      : randomBytes(32);
    const redaction: { -readonly [K in keyof RedactionOptions]: RedactionOptions[K] } = {
      fingerprint: (sid) => sessionFingerprint(key, sid),
      ...(options.tokenPatterns && { tokenPatterns: options.tokenPatterns }),
    };
    let fromContract = false;
    if (options.contract && existsSync(options.contract)) {
      const json = JSON.parse(readFileSync(options.contract, "utf8")) as {
        tools?: ToolShape[];
        envelopes?: Record<string, unknown>;
      };
      if (typeof contractFacts(json) !== "string" && Array.isArray(json.tools)) {
        await learn(redaction, json.tools, json.envelopes);
        fromContract = true;
      }
    }
    const recorder = new TraceRecorder(
      // The file descriptor is its opener's to close.
      createWriteStream("", { fd, autoClose: false }),
      new TraceRedactor(redaction),
      redaction,
      options,
    );
    recorder.learnedFromTraffic = fromContract;
    return recorder;
  }

  /** Events written so far. */
  events(): number {
    return this.written;
  }

  /** A bearer token (or any secret) of the traffic: redacted wherever it reappears. */
  addSecret(secret: string): void {
    this.redactor.addSecret(secret);
  }

  learnerMessage(): void {
    this.write({ at: new Date().toISOString(), learnerMessage: true });
  }

  /**
   * Record the JSON-RPC messages of one body sent by `from` (or an unrecorded event when it cannot
   * be recorded; `answers` are the request ids an unrecorded answer belongs to). Returns the ids of
   * the requests recorded, so their answer can be tied to them.
   */
  body(from: "client" | "server", body: Buffer | "tooLarge", answers?: unknown[]): unknown[] {
    const decoded: { messages: JsonRpcMessage[] } | { unrecorded: UnrecordedReason } =
      body === "tooLarge"
        ? { unrecorded: "tooLarge" }
        : decodeMessages(body, this.options.maxDepth);
    if ("unrecorded" in decoded) {
      this.unrecorded(from, decoded.unrecorded, answers);
      return [];
    }
    const ids: unknown[] = [];
    for (const message of decoded.messages) {
      const tools = (message.result as { tools?: unknown } | undefined)?.tools;
      if (from === "server" && Array.isArray(tools) && !this.learnedFromTraffic) {
        this.learnedFromTraffic = true;
        // A tool list the facts cannot be derived from leaves redaction as it was.
        learn(this.redaction, tools as ToolShape[]).catch(() => undefined);
      }
      if (typeof message.method === "string" && message.id !== undefined) ids.push(message.id);
      this.write({
        at: new Date().toISOString(),
        from,
        message: this.redactor.redact(message, from),
      });
    }
    return ids;
  }

  /** A message forwarded but not recorded. */
  unrecorded(from: "client" | "server", reason: UnrecordedReason, answers?: unknown[]): void {
    this.write({
      at: new Date().toISOString(),
      from,
      unrecorded: { reason, ...(answers && answers.length > 0 && { answers }) },
    });
  }

  /** Finish the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    await new Promise<void>((resolve) => this.file.end(resolve));
  }

  /** Lines not yet handed to the file: written together once per turn of the event loop. */
  private pending: string[] = [];

  private closed = false;

  private write(event: TraceEvent): void {
    // An answer still streaming when the proxy stops is not recorded after the file's end.
    if (this.closed) return;
    if (this.pending.length === 0) setImmediate(() => this.flush());
    this.pending.push(traceLine(event));
    this.written++;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.file.write(this.pending.join(""));
    this.pending = [];
  }
}

/** Redaction facts from a tool list: the session field and the prose-capable output fields. */
async function learn(
  redaction: { -readonly [K in keyof RedactionOptions]: RedactionOptions[K] },
  tools: ToolShape[],
  envelopes?: Record<string, unknown>,
): Promise<void> {
  const facts = deriveTurnFacts(tools, envelopes);
  if (facts.sessionField) redaction.sessionField = facts.sessionField;
  redaction.proseOutputs = await proseOutputFields(tools);
}

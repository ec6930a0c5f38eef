import { closeSync, existsSync, openSync, rmSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { RecorderOptions } from "./trace-recorder.js";

/** What the forwarding thread hands the recorder thread. */
export type RecorderCommand =
  | { kind: "secret"; secret: string }
  | { kind: "learnerMessage" }
  /** A body on the MCP path; `exchange` ties an answer to its request. */
  | { kind: "body"; from: "client" | "server"; exchange: number; body: Uint8Array | "tooLarge" }
  | { kind: "close" };

/** What the recorder thread answers. */
export type RecorderReply =
  | { kind: "ready" }
  | { kind: "failed"; line: string }
  | { kind: "problem"; line: string }
  | { kind: "closed"; events: number };

/** Heap of the recorder thread: a recording that needs more fails alone, forwarding goes on. */
const RECORDER_HEAP_MB = 512;

/**
 * The recorder, on a thread of its own. `out` is opened here, synchronously, before anything
 * listens: an `out` that cannot be opened throws its I/O error, and a start that fails leaves no
 * file it created. Every call posts and returns at once; problems go to `log`.
 */
export class RecorderThread {
  private events = 0;
  private dead = false;
  private closed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly fd: number,
    private readonly out: string,
    private readonly created: boolean,
    log: (line: string) => void,
  ) {
    worker.on("message", (reply: RecorderReply) => {
      if (reply.kind === "problem") log(reply.line);
    });
    worker.on("error", (error) => {
      this.dead = true;
      log(`recording stopped (forwarding goes on): ${error.message.split("\n")[0]}`);
    });
    worker.on("exit", () => {
      this.dead = true;
    });
  }

  static async start(
    out: string,
    options: RecorderOptions,
    log: (line: string) => void,
  ): Promise<RecorderThread> {
    const existed = existsSync(out);
    const fd = openSync(out, "a", 0o600);
    const workerData = { options, fd };
    const resourceLimits = { maxOldGenerationSizeMb: RECORDER_HEAP_MB };
    const entry = new URL(
      import.meta.url.endsWith(".ts") ? "./record-worker.ts" : "./record-worker.js",
      import.meta.url,
    );
    // Run from the TypeScript sources (tests under tsx), the thread registers tsx first.
    const worker = entry.pathname.endsWith(".ts")
      ? new Worker(
          `import("tsx/esm/api").then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`,
          { eval: true, workerData, resourceLimits },
        )
      : new Worker(entry, { workerData, resourceLimits });
    const first = await new Promise<RecorderReply | Error>((resolve) => {
      worker.once("message", resolve);
      worker.once("error", resolve);
    });
    if (first instanceof Error || first.kind !== "ready") {
      await worker.terminate();
      closeSync(fd);
      if (!existed) rmSync(out, { force: true });
      throw new Error(first instanceof Error ? first.message : (first as { line: string }).line);
    }
    return new RecorderThread(worker, fd, out, !existed, log);
  }

  secret(secret: string): void {
    this.post({ kind: "secret", secret });
  }

  learnerMessage(): void {
    this.post({ kind: "learnerMessage" });
  }

  body(from: "client" | "server", exchange: number, body: Buffer | "tooLarge"): void {
    this.post({ kind: "body", from, exchange, body });
  }

  /** Events written (known once closed). */
  written(): number {
    return this.events;
  }

  /** Finish the trace: everything posted so far is written. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.dead) {
      const closed = new Promise<void>((resolve) => {
        const done = (reply: RecorderReply) => {
          if (reply.kind !== "closed") return;
          this.events = reply.events;
          this.worker.off("message", done);
          resolve();
        };
        this.worker.on("message", done);
        this.worker.once("exit", () => resolve());
      });
      this.post({ kind: "close" });
      await closed;
    }
    this.dead = true;
    await this.worker.terminate();
    closeSync(this.fd);
  }

  /** Close, and remove the trace file again if this start created it (a start that failed). */
  async discard(): Promise<void> {
    await this.close();
    if (this.created) rmSync(this.out, { force: true });
  }

  private post(command: RecorderCommand): void {
    if (!this.dead) this.worker.postMessage(command);
  }
}

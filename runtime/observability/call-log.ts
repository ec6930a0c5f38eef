import { pino, type Logger } from "pino";

/** The L13 fields of one tool invocation's log line. */
export interface CallLogFields {
  contractMajor: number;
  pluginLine: string;
  serverBuild: string;
  /** A contract tool name, or "unknown" (a caller-chosen name is never logged). */
  toolName: string;
  status: "ok" | "error";
  /** "OK" or a stable error code. */
  resultCode: string;
  latencyMs: number;
  /** Truncated HMAC of the learning session id; never the id itself. */
  sessionFingerprint?: string;
  stateVersion?: number;
  stateSchemaVersion?: number;
  workflowVersion?: string;
  curriculumRevision?: string;
  /** Writes only, and only once the input validated (so it is a UUID, not caller text). */
  clientRequestId?: string;
  /** A turn-contract deviation this call showed (turn-monitor.ts); the call was served anyway. */
  turnDeviation?: string;
}

/** Bytes of log lines gathered before one write(2); the buffer also goes out every FLUSH_MS. */
const BUFFER_BYTES = 4096;
const FLUSH_MS = 250;

/** File destinations still open: on process exit, whatever they buffer is written synchronously. */
const openFiles = new Set<{ flushSync(): void }>();
let exitHookInstalled = false;

function flushOnExit(dest: {
  flushSync(): void;
  once(event: "close", listener: () => void): unknown;
}): void {
  openFiles.add(dest);
  dest.once("close", () => openFiles.delete(dest));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const file of openFiles) {
      try {
        file.flushSync();
      } catch {
        // Exiting anyway; nothing left to report to.
      }
    }
  });
}

/**
 * Create the runtime's JSON logger: a file path, "stdout" or "stderr". A file gets synchronous appends of
 * up to 4 KiB of lines at a time: one write(2) per dozen calls instead of one per call (the log
 * line is on every call's path), out within 250 ms when traffic is light, and written at close and
 * at process exit; only a hard kill can lose the last quarter second of lines.
 */
export function createLogger(destination: string, level: string): Logger {
  if (destination === "stdout" || destination === "stderr")
    return pino(
      { level, base: undefined, messageKey: "msg" },
      pino.destination(destination === "stdout" ? 1 : 2),
    );
  const dest = pino.destination({
    dest: destination,
    mkdir: true,
    // A new log file is private (it has session fingerprints and request ids); an existing file
    // keeps the mode its operator gave it.
    mode: 0o600,
    sync: true,
    minLength: BUFFER_BYTES,
    periodicFlush: FLUSH_MS,
  });
  flushOnExit(dest);
  // No redaction list on purpose: call lines are built from an allowlist of fields (CallLogFields).
  return pino({ level, base: undefined, messageKey: "msg" }, dest);
}

/** pino's number for "info", the level of call lines. */
const INFO = pino.levels.values.info;

/**
 * Write the one line of a tool call, in pino's line format (`level`, `time`, the fields, `msg`).
 * A call line has a fixed, allowlisted shape of strings and numbers, so it is serialized with one
 * `JSON.stringify` straight into the logger's destination instead of pino's general serializer
 * (it is on every call's path).
 */
export function logCall(logger: Logger, fields: CallLogFields): void {
  if (!logger.isLevelEnabled("info")) return;
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[
    pino.symbols.streamSym
  ];
  stream.write(
    `${JSON.stringify({ level: INFO, time: Date.now(), ...fields, msg: "tool call" })}\n`,
  );
}

/** The parts of pino's sonic-boom destination that closing needs. */
interface Destination {
  fd: number;
  destroyed?: boolean;
  end(): void;
  flush(cb: (error?: Error) => void): void;
  once(event: "close" | "error", listener: () => void): unknown;
}

/**
 * Make every line logged so far durable, then release a file destination. sonic-boom's `flush(cb)`
 * can call back while an asynchronous write is still pending, so a reader right after close could
 * miss lines; `end()` writes what is buffered, waits for a write in flight, fsyncs and closes, and
 * only then emits 'close'. stdout/stderr stay open (they are flushed only): other code still writes
 * there.
 */
export function closeLogger(logger: Logger): Promise<void> {
  const dest = (logger as unknown as Record<symbol, Destination | undefined>)[
    pino.symbols.streamSym
  ];
  if (!dest || dest.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    if (dest.fd === 1 || dest.fd === 2) return dest.flush(() => resolve());
    dest.once("close", resolve);
    dest.once("error", resolve);
    dest.end();
  });
}

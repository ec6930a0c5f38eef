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
}

/** Create the runtime's JSON logger: a file path, or "stdout". */
export function createLogger(destination: string, level: string): Logger {
  // Synchronous appends: a line is one write(2) to the page cache, cheaper in CPU than handing each
  // line to the thread pool and back (the log line is on every call's path), and a reader of the
  // file sees every line of a finished call.
  const dest = destination === "stdout" ? pino.destination(1) : pino.destination({ dest: destination, mkdir: true, sync: true });
  // No redaction list on purpose: call lines are built from an allowlist of fields (CallLogFields).
  return pino({ level, base: undefined, messageKey: "msg" }, dest);
}

/** Write the one line of a tool call. */
export function logCall(logger: Logger, fields: CallLogFields): void {
  logger.info(fields, "tool call");
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
 * only then emits 'close'. stdout/stderr stay open (they are flushed only): other code still writes there.
 */
export function closeLogger(logger: Logger): Promise<void> {
  const dest = (logger as unknown as Record<symbol, Destination | undefined>)[pino.symbols.streamSym];
  if (!dest || dest.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    if (dest.fd === 1 || dest.fd === 2) return dest.flush(() => resolve());
    dest.once("close", resolve);
    dest.once("error", resolve);
    dest.end();
  });
}

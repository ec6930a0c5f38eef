import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { defaultTraceLimits, type TraceLimits } from "./trace-limits.js";

/** One line of a trace: its text, or why it has none (too long, not UTF-8). */
export type TraceLine =
  | { line: number; text: string }
  | { line: number; problem: "lineTooLong" | "notUtf8" };

/** A whole trace document, or why it was not read whole. */
export type TraceDocument =
  | { text: string }
  | { problem: "documentTooLarge" | "notUtf8"; line?: number };

/**
 * The bytes of one trace, as `trace check` reads them: its first characters (to tell the format),
 * its first line, the whole document (HAR, Inspector export; only under the document cap) and its
 * lines one by one (JSON Lines, streamed: only one line is held at a time).
 */
export interface TraceInput {
  head: string;
  firstLine(): TraceLine | undefined;
  document(): TraceDocument;
  lines(): Iterable<TraceLine>;
  /** The text read whole, for locating pointers (documents only). */
  text?: string;
}

/** A trace already in memory (tests, the runtime's self-trace). */
export function textTraceInput(text: string): TraceInput {
  return {
    head: text.slice(0, 4096),
    firstLine: () => first(textLines(text)),
    document: () => ({ text }),
    lines: () => textLines(text),
    text,
  };
}

function* textLines(text: string): Generator<TraceLine> {
  let start = 0;
  for (let i = 0; start < text.length; i++) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    yield { line: i + 1, text: text.slice(start, end) };
    start = end + 1;
  }
}

const first = <T>(items: Iterable<T>): T | undefined => {
  for (const item of items) return item;
  return undefined;
};

/** Thrown when a trace file is beyond the JSON Lines cap; nothing of it was read. */
export class TraceTooLarge extends Error {
  override name = "TraceTooLarge";
}

/**
 * A trace file read with bounded memory: lines are read in 1 MB chunks (a line longer than
 * `maxLineBytes` is skipped as one problem), checked to be UTF-8 and decoded one at a time; the
 * whole document is read only when the file is within `maxDocumentBytes`. Throws
 * {@link TraceTooLarge} for a file beyond `maxTraceBytes`, before reading it.
 */
export function fileTraceInput(abs: string, limits: TraceLimits = defaultTraceLimits): TraceInput {
  const fd = openSync(abs, "r");
  let size: number;
  try {
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  if (size > limits.maxTraceBytes) throw new TraceTooLarge(String(size));
  const headBytes = readBytes(abs, 0, Math.min(size, 4096));
  const input: TraceInput = {
    head: headBytes.toString("utf8"),
    firstLine: () => first(fileLines(abs, limits.maxLineBytes)),
    document: () => {
      if (size > limits.maxDocumentBytes) return { problem: "documentTooLarge" };
      const bytes = readBytes(abs, 0, size);
      if (!isUtf8(bytes)) return { problem: "notUtf8", line: firstBadLine(bytes) };
      input.text = bytes.toString("utf8");
      return { text: input.text };
    },
    lines: () => fileLines(abs, limits.maxLineBytes),
  };
  return input;
}

function readBytes(abs: string, from: number, length: number): Buffer {
  const fd = openSync(abs, "r");
  try {
    const out = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, out, got, length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return out.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The 1-based line of the first byte sequence that is not UTF-8. */
function firstBadLine(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++)
    if (i === bytes.length || bytes[i] === 0x0a) {
      if (!isUtf8(bytes.subarray(start, i))) return line;
      line++;
      start = i + 1;
    }
  return line;
}

/**
 * The lines of a file, read in 1 MB chunks; `\n` never occurs inside a UTF-8 sequence. The whole
 * lines of a chunk are checked and decoded at once (as fast as reading the file as one string),
 * line by line only where the chunk is not UTF-8 or a line spans chunks.
 */
function* fileLines(abs: string, maxLineBytes: number): Generator<TraceLine> {
  const fd = openSync(abs, "r");
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let tooLong = false;
    let line = 1;
    const one = (bytes: Buffer): TraceLine => {
      const n = line++;
      if (tooLong) return { line: n, problem: "lineTooLong" };
      if (!isUtf8(bytes)) return { line: n, problem: "notUtf8" };
      return { line: n, text: bytes.toString("utf8") };
    };
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      let start = 0;
      const firstEnd = chunk.indexOf(0x0a, 0);
      if (pendingBytes > 0 && firstEnd >= 0 && firstEnd < read) {
        // The line that began in an earlier chunk ends here.
        if (pendingBytes + firstEnd > maxLineBytes) tooLong = true;
        yield one(
          tooLong ? Buffer.alloc(0) : Buffer.concat([...pending, chunk.subarray(0, firstEnd)]),
        );
        pending = [];
        pendingBytes = 0;
        tooLong = false;
        start = firstEnd + 1;
      }
      const lastEnd = chunk.lastIndexOf(0x0a, read - 1);
      if (pendingBytes === 0 && lastEnd >= start) {
        const region = chunk.subarray(start, lastEnd);
        if (isUtf8(region) && region.length <= maxLineBytes) {
          const text = region.toString("utf8");
          let from = 0;
          for (;;) {
            const end = text.indexOf("\n", from);
            yield { line: line++, text: end < 0 ? text.slice(from) : text.slice(from, end) };
            if (end < 0) break;
            from = end + 1;
          }
        } else
          for (let at = start; at <= lastEnd; ) {
            const end = chunk.indexOf(0x0a, at);
            tooLong = end - at > maxLineBytes;
            yield one(chunk.subarray(at, end));
            tooLong = false;
            at = end + 1;
          }
        start = lastEnd + 1;
      }
      if (start < read) {
        pendingBytes += read - start;
        if (pendingBytes > maxLineBytes) {
          tooLong = true;
          pending = [];
        } else pending.push(Buffer.from(chunk.subarray(start, read)));
      }
    }
    if (pendingBytes > 0) yield one(tooLong ? Buffer.alloc(0) : Buffer.concat(pending));
  } finally {
    closeSync(fd);
  }
}

import type { Diagnostic, Location } from "../../../diagnostics/diagnostic.js";
import { diagnose } from "../../../diagnostics/rule.js";
import type { JsonRpcMessage } from "../../../contract-model/trace/trace-event.js";
import { TRACE_INPUT_INVALID } from "../trace-input.js";
import { readHar } from "./har.reader.js";
import { readInspectorExport } from "./inspector.reader.js";

/** One event of a trace with where it is written (a line, or a pointer into a JSON document). */
export type ReadEvent = (
  | { at: number; from: "client" | "server"; message: JsonRpcMessage }
  | { at: number; learnerMessage: true }
) & { where: Location };

/** The formats `trace check` reads. */
export type TraceFormat = "jsonl" | "har" | "inspector";

/**
 * A trace read into events, or the diagnostics that make it unusable (exit 2). JSON Lines are
 * read as they are iterated (a large trace is never held parsed whole): `problems` is complete
 * once `events` has been iterated.
 */
export interface ReadTrace {
  format: TraceFormat;
  events: Iterable<ReadEvent>;
  problems: Diagnostic[];
}

const isMessage = (m: unknown): m is JsonRpcMessage =>
  typeof m === "object" &&
  m !== null &&
  !Array.isArray(m) &&
  (m as JsonRpcMessage).jsonrpc === "2.0";

/** Milliseconds of an ISO-8601 timestamp, or NaN. */
export const timeOf = (at: unknown): number => (typeof at === "string" ? Date.parse(at) : NaN);

/**
 * Read a trace: JSON Lines (this project's format), a HAR file (`{"log":{"entries":…}}`) or an MCP
 * Inspector protocol export (a JSON array of history entries). Which one is decided by the first
 * character and, for a JSON document, its shape.
 */
export function readTrace(text: string, file: string): ReadTrace {
  // The first non-blank character (without copying a large trace, as trimStart would).
  const first = /\S/.exec(text.slice(0, 4096))?.[0];
  if (first === "[" || first === "{") {
    const doc = parseDocument(text);
    if (first === "[" && Array.isArray(doc)) return readInspectorExport(doc, file);
    if (isHar(doc)) return readHar(doc, file);
  }
  return readJsonLines(text, file);
}

function parseDocument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isHar = (doc: unknown) =>
  typeof doc === "object" &&
  doc !== null &&
  Array.isArray((doc as { log?: { entries?: unknown } }).log?.entries);

function readJsonLines(text: string, file: string): ReadTrace {
  const problems: Diagnostic[] = [];
  return { format: "jsonl", events: jsonLines(text, file, problems), problems };
}

/** How many own keys an object has (cheaper than listing them, on every event). */
function keyCount(o: Record<string, unknown>): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

function* jsonLines(text: string, file: string, problems: Diagnostic[]): Generator<ReadEvent> {
  let start = 0;
  for (let i = 0; start < text.length && problems.length < 20; i++) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    if (raw.trim() === "") continue;
    const where = { file, line: i + 1, column: 1 };
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch {
      problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "notJson", line: i + 1 }, where));
      continue;
    }
    const e = event as Record<string, unknown>;
    const at = timeOf(e?.at);
    const keys = typeof event === "object" && event !== null ? keyCount(e) : 0;
    if (keys === 2 && e.learnerMessage === true && !Number.isNaN(at))
      yield { at, learnerMessage: true, where };
    else if (
      keys === 3 &&
      "message" in e &&
      (e.from === "client" || e.from === "server") &&
      !Number.isNaN(at)
    ) {
      if (isMessage(e.message)) yield { at, from: e.from, message: e.message, where };
      else
        problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "notMessage", line: i + 1 }, where));
    } else
      problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "unknownEvent", line: i + 1 }, where));
  }
}

export { isMessage };

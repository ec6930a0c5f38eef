import type { Diagnostic, Location } from "../../../diagnostics/diagnostic.js";
import { diagnose } from "../../../diagnostics/rule.js";
import type {
  JsonRpcMessage,
  UnrecordedReason,
} from "../../../contract-model/trace/trace-event.js";
import { TRACE_INPUT_INVALID } from "../trace-input.js";
import { readHar } from "./har.reader.js";
import { readInspectorExport } from "./inspector.reader.js";
import { nestsDeeperThan } from "./json-depth.js";
import { textTraceInput, type TraceInput } from "./trace-input.js";
import { defaultTraceLimits, type TraceLimits } from "./trace-limits.js";

/** One event of a trace with where it is written (a line, or a pointer into a JSON document). */
export type ReadEvent = (
  | { at: number; from: "client" | "server"; message: JsonRpcMessage }
  | { at: number; learnerMessage: true }
  | { at: number; from: "client" | "server"; unrecorded: Unrecorded }
) & { where: Location };

/** A message a recorder forwarded but could not record, and the request ids it answers if known. */
export interface Unrecorded {
  reason: UnrecordedReason;
  answers: unknown[];
}

const unrecordedReasons: ReadonlySet<string> = new Set<UnrecordedReason>([
  "tooLarge",
  "tooDeep",
  "notUtf8",
  "notJson",
]);

/** The `unrecorded` field of an event, when it is one. */
function unrecordedOf(value: unknown): Unrecorded | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { reason, answers } = value as { reason?: unknown; answers?: unknown };
  if (typeof reason !== "string" || !unrecordedReasons.has(reason)) return undefined;
  if (answers !== undefined && !Array.isArray(answers)) return undefined;
  return { reason: reason as UnrecordedReason, answers: (answers as unknown[] | undefined) ?? [] };
}

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
 * Read a trace: JSON Lines (this project's format, streamed line by line), a HAR file
 * (`{"log":{"entries":…}}`) or an MCP Inspector protocol export (a JSON array of history
 * entries), both read whole under the document cap. Which one is decided by the first character
 * and, for a JSON document, its shape. Every event whose message nests deeper than
 * `limits.maxDepth` is a problem and is not passed on, so no later walk meets it.
 */
export function readTrace(
  source: string | TraceInput,
  file: string,
  limits: TraceLimits = defaultTraceLimits,
): ReadTrace {
  const input = typeof source === "string" ? textTraceInput(source) : source;
  const read = readFormat(input, file, limits);
  return { ...read, events: shallowEvents(read.events, read.problems, limits.maxDepth) };
}

function readFormat(input: TraceInput, file: string, limits: TraceLimits): ReadTrace {
  // The first non-blank character (without copying a large trace, as trimStart would).
  const first = /\S/.exec(input.head)?.[0];
  if (first === "[" || first === "{") {
    // A JSON Lines trace is one complete event per line; anything else starting with a bracket
    // is a document (HAR, Inspector export), unless the whole of it does not parse either.
    const line = first === "{" ? input.firstLine() : undefined;
    const lineDoc = line && "text" in line ? parseDocument(line.text) : undefined;
    if (lineDoc !== undefined && !isHar(lineDoc)) return readJsonLines(input, file, limits);
    const whole = input.document();
    if ("problem" in whole) {
      const problems = [
        whole.problem === "documentTooLarge"
          ? diagnose(
              TRACE_INPUT_INVALID,
              { variant: "documentTooLarge", file, mb: megabytes(limits.maxDocumentBytes) },
              { file },
            )
          : diagnose(
              TRACE_INPUT_INVALID,
              { variant: "notUtf8", line: whole.line ?? 1 },
              { file, line: whole.line ?? 1, column: 1 },
            ),
      ];
      return { format: first === "[" ? "inspector" : "jsonl", events: [], problems };
    }
    const doc = parseDocument(whole.text);
    if (first === "[" && Array.isArray(doc)) return readInspectorExport(doc, file);
    if (isHar(doc)) return readHar(doc, file);
  }
  return readJsonLines(input, file, limits);
}

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** The events whose messages stay within the depth cap; each deeper one becomes a problem. */
function* shallowEvents(
  events: Iterable<ReadEvent>,
  problems: Diagnostic[],
  maxDepth: number,
): Generator<ReadEvent> {
  for (const event of events) {
    if (!("message" in event) || !nestsDeeperThan(event.message, maxDepth - 1)) {
      yield event;
      continue;
    }
    const at =
      event.where.line !== undefined ? `line ${event.where.line}` : (event.where.pointer ?? "");
    problems.push(
      diagnose(TRACE_INPUT_INVALID, { variant: "tooDeep", at, depth: maxDepth }, event.where),
    );
  }
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

function readJsonLines(input: TraceInput, file: string, limits: TraceLimits): ReadTrace {
  const problems: Diagnostic[] = [];
  return { format: "jsonl", events: jsonLines(input, file, problems, limits), problems };
}

/** How many own keys an object has (cheaper than listing them, on every event). */
function keyCount(o: Record<string, unknown>): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

function* jsonLines(
  input: TraceInput,
  file: string,
  problems: Diagnostic[],
  limits: TraceLimits,
): Generator<ReadEvent> {
  for (const read of input.lines()) {
    if (problems.length >= 20) return;
    const i = read.line - 1;
    const where = { file, line: read.line, column: 1 };
    if ("problem" in read) {
      problems.push(
        diagnose(
          TRACE_INPUT_INVALID,
          read.problem === "notUtf8"
            ? { variant: "notUtf8", line: read.line }
            : { variant: "lineTooLong", line: read.line, mb: megabytes(limits.maxLineBytes) },
          where,
        ),
      );
      continue;
    }
    const raw = read.text;
    if (raw.trim() === "") continue;
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
    } else if (
      keys === 3 &&
      (e.from === "client" || e.from === "server") &&
      !Number.isNaN(at) &&
      unrecordedOf(e.unrecorded)
    )
      yield { at, from: e.from, unrecorded: unrecordedOf(e.unrecorded)!, where };
    else
      problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "unknownEvent", line: i + 1 }, where));
  }
}

export { isMessage };

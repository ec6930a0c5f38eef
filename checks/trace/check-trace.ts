import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import type { UnrecordedReason } from "../../contract-model/trace/trace-event.js";
import {
  deriveTurnFacts,
  type ToolShape,
  type TurnFacts,
} from "../../contract-model/trace/turn-facts.js";
import { readTrace, type TraceFormat } from "./read/read-trace.js";
import { textTraceInput, type TraceInput } from "./read/trace-input.js";
import type { TraceLimits } from "./read/trace-limits.js";
import { traceRules } from "./rules/index.js";
import { TRACE_INPUT_INVALID, TRACE_TURNS_INFERRED, TRACE_UNRECORDED } from "./trace-input.js";
import { stepsOf, type Step, type TraceContext } from "./trace-rule.js";
import { buildTurns, type Turn } from "./turn-model.js";

/** How `trace check` reads a trace. */
export interface TraceCheckOptions {
  /** Unmarked traces: a pause of at least this many seconds before a call starts a new turn. */
  turnGapSeconds: number;
  /** Caps on what is read (defaults: `defaultTraceLimits`). */
  limits?: TraceLimits;
}

/** The outcome of judging one trace. */
export interface TraceCheckResult {
  diagnostics: Diagnostic[];
  /** The trace could not be judged (exit 2). */
  unusable: boolean;
  format?: TraceFormat;
  events: number;
  turns: number;
  inferred: boolean;
}

/**
 * The turn facts of a contract document: our snapshot (tools and envelopes) or any MCP tools/list
 * (`{"tools":[…]}`, a JSON-RPC `{"result":{"tools":[…]}}` or a bare array). A string says why the
 * document is neither.
 */
export function contractFacts(json: unknown): TurnFacts | string {
  const obj = (v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const body = Array.isArray(obj(json).result && obj(obj(json).result).tools)
    ? obj(obj(json).result)
    : json;
  const tools = Array.isArray(body) ? body : obj(body).tools;
  if (!Array.isArray(tools) || !tools.every((t) => typeof obj(t).name === "string"))
    return "it has no tools array of named tools";
  return deriveTurnFacts(tools as ToolShape[], obj(obj(body).envelopes) as Record<string, unknown>);
}

/** Judge one trace (its text, or a file read line by line) against a contract's turn facts (G10). */
export function checkTrace(
  source: string | TraceInput,
  file: string,
  facts: TurnFacts,
  contract: string,
  options: TraceCheckOptions,
): TraceCheckResult {
  const input = typeof source === "string" ? textTraceInput(source) : source;
  const read = readTrace(input, file, options.limits);
  const problems = read.problems;
  // Whether learner messages are marked decides how turns are split; a text search is enough.
  const marked = read.format === "jsonl" && marksLearnerMessages(input);
  const { turns, inferred, events, unrecorded } = buildTurns(
    read.events,
    facts,
    contract,
    { turnGapMs: options.turnGapSeconds * 1000 },
    problems,
    marked,
  );
  const base = { format: read.format, events };
  if (problems.length === 0 && events === 0)
    problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "empty", file }, { file }));
  if (problems.length > 0)
    return { diagnostics: problems, unusable: true, ...base, turns: turns.length, inferred };
  const steps = new Map<Turn, Step[]>(turns.map((t) => [t, stepsOf(t, facts)]));
  const ctx: TraceContext = { file, facts, turns, steps };
  const diagnostics: Diagnostic[] = [];
  for (const rule of traceRules) rule.check(ctx, (d) => diagnostics.push(d));
  const first = unrecorded[0];
  if (first)
    diagnostics.push(
      diagnose(
        TRACE_UNRECORDED,
        {
          file,
          count: unrecorded.length,
          line: first.where.line ?? 0,
          reason: reasonText[first.unrecorded.reason],
        },
        first.where,
      ),
    );
  if (inferred && turns.length > 0)
    diagnostics.push(
      diagnose(
        TRACE_TURNS_INFERRED,
        { file, turns: turns.length, gap: options.turnGapSeconds },
        { file },
      ),
    );
  return { diagnostics, unusable: false, ...base, turns: turns.length, inferred };
}

/** What an unrecorded event's reason says, in a note. */
const reasonText: Record<UnrecordedReason, string> = {
  tooLarge: "larger than the recorder's cap",
  tooDeep: "nested deeper than the recorder's cap",
  notUtf8: "not UTF-8",
  notJson: "not JSON",
};

const marker = /"learnerMessage":\s*true\s*}\s*$/;

/** Whether any line of a JSON Lines trace is a learner-message marker. */
function marksLearnerMessages(input: TraceInput): boolean {
  if (input.text !== undefined) return new RegExp(marker.source, "m").test(input.text);
  for (const line of input.lines()) if ("text" in line && marker.test(line.text)) return true;
  return false;
}

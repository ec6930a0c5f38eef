import type { Diagnostic, Location } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import type { TurnFacts } from "../../contract-model/trace/turn-facts.js";
import type { ReadEvent } from "./read/read-trace.js";
import { TRACE_INPUT_INVALID } from "./trace-input.js";

/** One `tools/call` of a trace with its outcome. */
export interface ToolCall {
  /** Position of the request event in the trace. */
  seq: number;
  /** Position of the answer event, when one came. */
  answerSeq?: number;
  where: Location;
  at: number;
  tool: string;
  args: Record<string, unknown>;
  /** The session handle the call named. */
  session?: string;
  /** A result or error arrived. */
  answered: boolean;
  /**
   * "OK", a stable error code, "TOOL_ERROR" (an error result without one), "RPC_<code>" or
   * "UNRECORDED" (an answer came that the recorder could not record).
   */
  code?: string;
  answerWhere?: Location;
  /** A continuation's server-filled tool call the result carries. */
  continuation?: { name: string; arguments: Record<string, unknown> };
  /** The result's continuation asks for the learner's consent before the next step. */
  consentRequired?: boolean;
  /** Input fields whose value the server never issued before the call. */
  unissued: string[];
}

/** One turn: the calls made for one learner message. */
export interface Turn {
  number: number;
  /** The learner-message event, or the first call of an inferred turn. */
  where: Location;
  calls: ToolCall[];
}

/** How turns are found: marked by learner-message events, else split at pauses. */
export interface TurnOptions {
  /** A pause of at least this long before a call starts a new turn (unmarked traces). */
  turnGapMs: number;
}

const leadingCode = /^([A-Z][A-Z0-9_]{2,}):/;

/** The code of a call whose answer crossed the recorder unrecorded: answered, outcome unknown. */
const UNRECORDED = "UNRECORDED";

/** An unrecorded event of a trace. */
export type UnrecordedEvent = Extract<ReadEvent, { unrecorded: unknown }>;

/** Every string inside a value, into `into`. */
function strings(value: unknown, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, into);
  else if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) strings(v, into);
}

const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;

/**
 * Build the turns of a trace: pair each request with its response (by JSON-RPC id), judge who
 * issued which value, and split the calls into turns. Problems that make the trace unusable (a
 * response without its request, a tool the contract does not have) are pushed to `problems`.
 */
export function buildTurns(
  events: Iterable<ReadEvent>,
  facts: TurnFacts,
  contract: string,
  options: TurnOptions,
  problems: Diagnostic[],
  /** Whether the trace marks learner messages (known up front: the events are read once). */
  marked: boolean,
): { turns: Turn[]; inferred: boolean; events: number; unrecorded: UnrecordedEvent[] } {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  const pending = new Map<string, ToolCall | null>();
  const serverPending = new Set<string>();
  const issued = new Set<string>();
  const sessions = new Set<string>();
  const foreign = new Set<string>();
  const unrecorded: UnrecordedEvent[] = [];
  let lastAt = Number.NEGATIVE_INFINITY;
  const open = (where: Location) => {
    current = { number: turns.length + 1, where, calls: [] };
    turns.push(current);
  };
  let seq = -1;
  for (const event of events) {
    seq++;
    if ("learnerMessage" in event) {
      open(event.where);
      lastAt = event.at;
      continue;
    }
    if ("unrecorded" in event) {
      unrecorded.push(event);
      // An answer that was not recorded still answered its calls (a recorded one may follow).
      if (event.from === "server")
        for (const answered of event.unrecorded.answers) {
          const call = pending.get(JSON.stringify(answered));
          if (call && !call.answered) {
            call.answered = true;
            call.answerSeq = seq;
            call.answerWhere = event.where;
            call.code = UNRECORDED;
          }
        }
      continue;
    }
    const { message, from, where } = event;
    // An error with a null id answers a message that could not be read (JSON-RPC): no request.
    const id = "id" in message && message.id !== null ? JSON.stringify(message.id) : undefined;
    const isRequest = typeof message.method === "string";
    // What the server issued: the strings of its results' structured content and _meta (a text
    // block is prose or a summary), of a tools/list or resources result, of its own requests.
    if (from === "server") {
      const result = asObject(message.result);
      if (result) {
        for (const key in result) if (key !== "content") strings(result[key], issued);
      } else strings(message.params, issued);
    }
    if (isRequest && from === "client" && id !== undefined) {
      const params = asObject(message.params);
      if (message.method !== "tools/call" || typeof params?.name !== "string") {
        pending.set(id, null);
      } else {
        const tool = params.name;
        const known = facts.tools.get(tool);
        if (!known) {
          if (!foreign.has(tool))
            problems.push(
              diagnose(
                TRACE_INPUT_INVALID,
                { variant: "foreignTool", line: where.line ?? 0, tool, contract },
                where,
              ),
            );
          foreign.add(tool);
          pending.set(id, null);
          lastAt = event.at;
          continue;
        }
        const args = asObject(params.arguments) ?? {};
        const session = facts.sessionField ? args[facts.sessionField] : undefined;
        const call: ToolCall = {
          seq,
          where,
          at: event.at,
          tool,
          args,
          answered: false,
          unissued: [],
          ...(typeof session === "string" && { session }),
        };
        for (const field of known.issuedInputs) {
          const value = args[field];
          if (typeof value !== "string" || issued.has(value)) continue;
          // The session handle comes from the first-party launch: its first use is not a finding.
          if (field === facts.sessionField && sessions.size === 0) continue;
          call.unissued.push(field);
        }
        if (typeof session === "string") sessions.add(session);
        if (!current || (!marked && event.at - lastAt >= options.turnGapMs)) open(where);
        current?.calls.push(call);
        pending.set(id, call);
      }
    } else if (isRequest && from === "server" && id !== undefined) serverPending.add(id);
    else if (!isRequest && id !== undefined) {
      if (from === "client") serverPending.delete(id);
      else if (!pending.has(id)) {
        // Its request may be one a recorder could not record.
        if (!unrecorded.some((u) => u.from === "client"))
          problems.push(
            diagnose(
              TRACE_INPUT_INVALID,
              { variant: "orphanResponse", line: where.line ?? 0, id: id },
              where,
            ),
          );
      } else {
        const call = pending.get(id);
        pending.delete(id);
        if (call) answer(call, seq, message, where, facts);
      }
    }
    lastAt = event.at;
  }
  return { turns, inferred: !marked, events: seq + 1, unrecorded };
}

function answer(
  call: ToolCall,
  seq: number,
  message: Record<string, unknown>,
  where: Location,
  facts: TurnFacts,
): void {
  call.answered = true;
  call.answerSeq = seq;
  call.answerWhere = where;
  const error = asObject(message.error);
  if (error) {
    call.code = `RPC_${String(error.code)}`;
    return;
  }
  const result = asObject(message.result) ?? {};
  if (result.isError === true) {
    const content = Array.isArray(result.content) ? asObject(result.content[0]) : undefined;
    const code = leadingCode.exec(typeof content?.text === "string" ? content.text : "")?.[1];
    call.code =
      code && (facts.errorCodes.size === 0 || facts.errorCodes.has(code)) ? code : "TOOL_ERROR";
    return;
  }
  call.code = "OK";
  const output = asObject(result.structuredContent);
  if (!output) return;
  for (const at of facts.tools.get(call.tool)?.continuationAt ?? []) {
    if (asObject(output[at])?.consentRequired === true) call.consentRequired = true;
    const toolCall = asObject(asObject(output[at])?.toolCall);
    if (toolCall && typeof toolCall.name === "string")
      call.continuation = { name: toolCall.name, arguments: asObject(toolCall.arguments) ?? {} };
  }
}

import { defineRule } from "../../diagnostics/rule.js";

/** Input a trace check cannot judge: exit 2, never a stack (G9). */
export const TRACE_INPUT_INVALID = defineRule({
  id: "TRACE_INPUT_INVALID",
  family: "trace",
  severity: "error",
  summary:
    "A trace cannot be judged: unreadable, empty, not JSON Lines (or a HAR or Inspector " +
    "export), an event of unknown shape, a response without its request, or tools the " +
    "contract does not have (G10).",
  message: {
    unreadable: "{file} cannot be read",
    empty: "{file} holds no events: record a trace first",
    notJson: "line {line} is not JSON: each line of a trace is one JSON event",
    unknownEvent:
      'line {line} is not a trace event: expected {"at","from","message"} or ' +
      '{"at","learnerMessage":true}',
    notMessage: "line {line}: the message is not a JSON-RPC 2.0 message",
    orphanResponse: "line {line}: a response to request id {id}, which the trace never sent",
    foreignTool:
      "line {line}: tool {tool} is not a tool of {contract}: is this a trace of another server?",
    contract: "{contract} is not a contract snapshot or tools/list: {error}",
    notUtf8: "line {line} is not valid UTF-8: a trace is UTF-8 text",
    lineTooLong: "line {line} is longer than {mb} MB (raise the cap with --max-line-mb)",
    tooDeep: "{at}: the message nests deeper than {depth} levels (raise the cap with --max-depth)",
    traceTooLarge:
      "{file} is larger than {mb} MB, the cap for a trace; it was not read (raise it with --max-trace-mb)",
    documentTooLarge:
      "{file} is larger than {mb} MB, the cap for a HAR file or Inspector export; it was not read (raise it with --max-document-mb)",
  },
});

/** A note, not a finding: the trace marks no learner messages, so turns were inferred. */
export const TRACE_TURNS_INFERRED = defineRule({
  id: "TRACE_TURNS_INFERRED",
  family: "trace",
  severity: "note",
  summary:
    "The trace marks no learner messages: turns were inferred from pauses between calls " +
    "(G10).",
  message:
    "{file} marks no learner messages: {turns} turn(s) inferred from pauses of at least " +
    "{gap} s between tool calls",
});

/**
 * A note, not a finding: the recording proxy forwarded messages it could not record (too large, too
 * deep, not UTF-8, not JSON); turns are judged on what was recorded.
 */
export const TRACE_UNRECORDED = defineRule({
  id: "TRACE_UNRECORDED",
  family: "trace",
  severity: "note",
  summary:
    "The recording marks messages the proxy forwarded but could not record: turns are judged " +
    "on the recorded messages (G10).",
  message:
    "{file} marks {count} message(s) forwarded but not recorded (the first at line {line}: " +
    "{reason}); turns are judged on the recorded messages, and an answer whose request was not " +
    "recorded is not an error",
});

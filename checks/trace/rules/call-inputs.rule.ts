import { defineRule } from "../../../diagnostics/rule.js";
import { prosePaths } from "../../../contract-model/trace/prose-value.js";
import { traceRule } from "../trace-rule.js";

/** Every id, capability and option payload was issued by the server earlier (C11, C16). */
export const unissuedValue = traceRule(
  defineRule({
    id: "TRACE_UNISSUED_VALUE",
    family: "trace",
    severity: "error",
    summary:
      "Every id, capability, option payload and URL in a call was issued by the server earlier " +
      "in the trace: nothing model-synthesized (C11, C14, C16, G10).",
    message: "turn {turn}: {tool} sent a {field} the server never issued earlier in the trace",
  }),
  (ctx, report) => {
    for (const turn of ctx.turns)
      for (const call of turn.calls)
        for (const field of call.unissued) report(turn, { tool: call.tool, field }, call.where);
  },
);

/** Nothing that reads as learner prose in any argument (C5, G11). */
export const proseArgument = traceRule(
  defineRule({
    id: "TRACE_PROSE_ARGUMENT",
    family: "trace",
    severity: "error",
    summary:
      "No argument holds what reads as learner prose (words with spaces, a non-ASCII script, " +
      "URL-borne prose, a list of words): chat text stays in the chat (C5, G11, G10).",
    message: "turn {turn}: {tool} sent prose in {field}",
  }),
  (ctx, report) => {
    for (const turn of ctx.turns)
      for (const call of turn.calls)
        for (const field of prosePaths(call.args))
          report(turn, { tool: call.tool, field }, call.where);
  },
);

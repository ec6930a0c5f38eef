import { defineRule } from "../../../diagnostics/rule.js";
import { traceRule } from "../trace-rule.js";

/** At most one mutation per turn, unless the contract's continuation chains it (C2, G3, G10). */
export const secondMutation = traceRule(
  defineRule({
    id: "TRACE_SECOND_MUTATION",
    family: "trace",
    severity: "error",
    summary:
      "At most one mutation per learner message, unless a continuation's tool call chains " +
      "it (C2, G3, G10).",
    message: "turn {turn}: {tool} is a second mutation in the turn",
  }),
  (ctx, report) => {
    for (const [turn, steps] of ctx.steps)
      for (const s of steps)
        if (
          s.isWrite &&
          s.mutationsBefore > 0 &&
          !s.stopped &&
          !ctx.facts.chainedTools.has(s.call.tool)
        )
          report(turn, { tool: s.call.tool }, s.call.where);
  },
);

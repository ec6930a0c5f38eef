import { defineRule } from "../../../diagnostics/rule.js";
import { answeredBefore, traceRule } from "../trace-rule.js";

/**
 * Verified Recall results are saved only with the learner's consent (C7, C12): the learner sees the
 * reference answers, compares, and agrees to saving in a message of their own. A write that
 * records what a read revealed (the contract's `revealedBy`) in the very turn of that read saved
 * without asking.
 */
export const recallWithoutConsent = traceRule(
  defineRule({
    id: "TRACE_RECALL_RECORDED_WITHOUT_CONSENT",
    family: "trace",
    severity: "error",
    summary:
      "Verified Recall results are recorded only after the learner agreed: never in the turn " +
      "that revealed the reference answers, with no learner message in between (C7, C12, G10).",
    message:
      "turn {turn}: {tool} saved the results in the turn that revealed them ({revealedBy}), " +
      "before the learner could agree",
  }),
  (ctx, report) => {
    for (const [turn, steps] of ctx.steps)
      for (const s of steps) {
        const reads = ctx.facts.revealedBy.get(s.call.tool);
        if (!reads) continue;
        const reveal = steps.find(
          (r) => reads.has(r.call.tool) && r.call.code === "OK" && answeredBefore(r.call, s.call),
        );
        if (reveal) report(turn, { tool: s.call.tool, revealedBy: reveal.call.tool }, s.call.where);
      }
  },
);

/**
 * A continuation with `consentRequired: true` ends the structured work of the turn (C10): the
 * backend-selected next step starts only after the learner agreed, on the next message's fresh
 * context. Any model-visible call after it in the same turn other than a full-context read (which
 * TRACE_CONTEXT_AFTER_WRITE judges) starts that step without consent; the first one is reported.
 */
export const successorWithoutConsent = traceRule(
  defineRule({
    id: "TRACE_SUCCESSOR_WITHOUT_CONSENT",
    family: "trace",
    severity: "error",
    summary:
      "After a continuation with consentRequired: true the next step starts only after a new " +
      "learner message: no further call in that turn (C10, C13, G10).",
    message:
      "turn {turn}: {tool} started the next step although {by}'s continuation asked for the " +
      "learner's consent first",
  }),
  (ctx, report) => {
    for (const [turn, steps] of ctx.steps)
      for (const asked of steps) {
        if (asked.call.code !== "OK" || asked.call.consentRequired !== true) continue;
        const next = steps.find((s) => !s.isRead && answeredBefore(asked.call, s.call));
        if (next) report(turn, { tool: next.call.tool, by: asked.call.tool }, next.call.where);
      }
  },
);

import { defineRule } from "../../../diagnostics/rule.js";
import { traceRule } from "../trace-rule.js";

/** Exactly one fresh full context per learner message, before anything else (C2, G10). */
export const noFreshContext = traceRule(
  defineRule({
    id: "TRACE_NO_FRESH_CONTEXT",
    family: "trace",
    severity: "error",
    summary:
      "Every learner message starts with one fresh full-context read, before any other call " +
      "(C2, G10).",
    message: {
      late: "turn {turn}: {tool} was called before the turn's fresh full-context read",
      none: "turn {turn}: {tool} was called without a fresh full-context read in the turn",
      empty: "turn {turn}: the learner message got no fresh full-context read",
    },
  }),
  (ctx, report) => {
    for (const turn of ctx.turns) {
      const steps = ctx.steps.get(turn) ?? [];
      if (steps.length === 0) {
        if (turn.calls.length === 0) report(turn, { variant: "empty" }, turn.where);
        continue;
      }
      const [first] = steps;
      if (first.isRead || first.stopped) continue;
      const variant = steps.some((s) => s.isRead) ? "late" : "none";
      report(turn, { variant, tool: first.call.tool } as const, first.call.where);
    }
  },
);

/** No intra-turn polling: a second context read needs a conflict in between (C2, C16, G10). */
export const contextPolling = traceRule(
  defineRule({
    id: "TRACE_CONTEXT_POLLING",
    family: "trace",
    severity: "error",
    summary:
      "No intra-turn polling: a second full-context read in a turn needs a STATE_CONFLICT " +
      "since the first (C2, C16, G10).",
    message: "turn {turn}: {tool} read the full context again without a conflict in between",
  }),
  (ctx, report) => {
    for (const [turn, steps] of ctx.steps)
      for (const s of steps)
        if (
          s.isRead &&
          s.readsBefore > 0 &&
          !s.conflictSinceRead &&
          !s.writeSinceRead &&
          !s.stopped
        )
          report(turn, { tool: s.call.tool }, s.call.where);
  },
);

/** A successful mutation's successor replaces the context: no read after it (C2, C16, G10). */
export const contextAfterWrite = traceRule(
  defineRule({
    id: "TRACE_CONTEXT_AFTER_WRITE",
    family: "trace",
    severity: "error",
    summary:
      "Every successful mutation returns the successor state, which replaces the context for " +
      "the rest of the turn: no full-context read after a successful write (C2, C16, G10).",
    message: "turn {turn}: {tool} re-read the full context after a successful write",
  }),
  (ctx, report) => {
    for (const [turn, steps] of ctx.steps)
      for (const s of steps)
        if (s.isRead && s.writeSinceRead && !s.conflictSinceRead && !s.stopped)
          report(turn, { tool: s.call.tool }, s.call.where);
  },
);

import { defineRule } from "../../../diagnostics/rule.js";
import { STATE_CONFLICT } from "../error-classes.js";
import { traceRule } from "../trace-rule.js";

/** On STATE_CONFLICT, reload the context once before anything else (C2, G10). */
export const conflictNotReloaded = traceRule(
  defineRule({
    id: "TRACE_CONFLICT_NOT_RELOADED",
    family: "trace",
    severity: "error",
    summary:
      "After a STATE_CONFLICT the next call reloads the full context once, then re-evaluates " +
      "(C2, G5, G10).",
    message: "turn {turn}: {tool} followed a STATE_CONFLICT without reloading the context",
  }),
  (ctx, report) => {
    for (const [turn, steps] of ctx.steps)
      for (const s of steps)
        if (
          s.previous?.code === STATE_CONFLICT &&
          // A continuation's chained call that conflicts is not retried, not reloaded for.
          !ctx.facts.chainedTools.has(s.previous.tool) &&
          !s.isRead &&
          !s.stopped
        )
          report(turn, { tool: s.call.tool }, s.call.where);
  },
);

/** Repeated conflicts or a hard error stop structured calls for the turn (C2, C14, G10). */
export const callAfterStop = traceRule(
  defineRule({
    id: "TRACE_CALL_AFTER_STOP",
    family: "trace",
    severity: "error",
    summary:
      "A second STATE_CONFLICT or a hard error (a session error, temporarily unavailable) " +
      "stops structured calls for the rest of the turn (C2, C14, G10).",
    message: {
      conflict: "turn {turn}: {tool} was called after a repeated STATE_CONFLICT",
      error: "turn {turn}: {tool} was called after {code}, which stops structured calls",
    },
  }),
  (ctx, report) => {
    for (const [turn, steps] of ctx.steps) {
      const s = steps.find((x) => x.stopped);
      if (!s?.stopped) continue;
      const tool = s.call.tool;
      report(
        turn,
        s.stopped.by === "conflict"
          ? { variant: "conflict", tool }
          : { variant: "error", tool, code: s.stopped.code },
        s.call.where,
      );
    }
  },
);

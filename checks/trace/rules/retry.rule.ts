import { canonicalJsonCompact } from "../../../contract-model/canonical.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { REQUEST_IN_PROGRESS } from "../error-classes.js";
import type { TraceContext } from "../trace-rule.js";
import { answeredBefore, traceRule } from "../trace-rule.js";
import type { ToolCall, Turn } from "../turn-model.js";

/** Every keyed write of the trace, in order, with its turn. */
function keyedWrites(ctx: TraceContext): { turn: Turn; call: ToolCall; key: string }[] {
  const field = ctx.facts.idempotencyKey;
  if (!field) return [];
  const out: { turn: Turn; call: ToolCall; key: string }[] = [];
  for (const turn of ctx.turns)
    for (const call of turn.calls) {
      const key = call.args[field];
      if (typeof key === "string" && ctx.facts.tools.get(call.tool)?.kind !== "read")
        out.push({ turn, call, key });
    }
  return out;
}

/** The operation a write asks for: its tool and arguments without the key (as the host wrote them). */
const withoutKey = (ctx: TraceContext, call: ToolCall) => {
  const { [ctx.facts.idempotencyKey ?? ""]: _key, ...rest } = call.args;
  return `${call.tool} ${JSON.stringify(rest)}`;
};

/** A new operation uses a fresh key: a key is never reused with other arguments (G6, L8). */
export const keyReused = traceRule(
  defineRule({
    id: "TRACE_KEY_REUSED",
    family: "trace",
    severity: "error",
    summary:
      "A clientRequestId is reused only to retry the identical call; a new operation uses a " +
      "fresh one (G6, L8, G10).",
    message:
      "turn {turn}: {tool} reused the clientRequestId of an earlier call with other arguments",
  }),
  (ctx, report) => {
    const seen = new Map<string, ToolCall>();
    for (const { turn, call, key } of keyedWrites(ctx)) {
      const id = `${call.tool} ${key}`;
      const before = seen.get(id);
      // Canonical JSON only when a key comes back: key order is the host's, not the meaning.
      if (before && canonicalJsonCompact(before.args) !== canonicalJsonCompact(call.args))
        report(turn, { tool: call.tool }, call.where);
      if (!before) seen.set(id, call);
    }
  },
);

/** A retry of an unanswered or in-flight write reuses its key and arguments exactly (G6). */
export const retryNewKey = traceRule(
  defineRule({
    id: "TRACE_RETRY_NEW_KEY",
    family: "trace",
    severity: "error",
    summary:
      "A retry of a write that got no answer or REQUEST_IN_PROGRESS reuses its clientRequestId " +
      "and arguments exactly (G6, L8, G10).",
    message:
      "turn {turn}: {tool} retried an unfinished write with a fresh clientRequestId, which " +
      "makes it a second operation",
  }),
  (ctx, report) => {
    const last = new Map<string, { call: ToolCall; key: string }>();
    for (const { turn, call, key } of keyedWrites(ctx)) {
      const op = withoutKey(ctx, call);
      const before = last.get(op);
      // Unfinished when the retry went out: no answer yet, or "still in progress".
      const unfinished =
        before && (!answeredBefore(before.call, call) || before.call.code === REQUEST_IN_PROGRESS);
      if (before && unfinished && before.key !== key) report(turn, { tool: call.tool }, call.where);
      last.set(op, { call, key });
    }
  },
);

import { canonicalJsonCompact } from "../../../contract-model/canonical.js";
import type { Location } from "../../../diagnostics/diagnostic.js";
import { defineRule } from "../../../diagnostics/rule.js";
import type { TraceContext } from "../trace-rule.js";
import { traceRule } from "../trace-rule.js";
import type { ToolCall, Turn } from "../turn-model.js";

/** What the continuation of one result asks for, and what the host did with it. */
interface Followed {
  turn: Turn;
  issuedBy: ToolCall;
  expected: Record<string, unknown>;
  /** The call that followed it, if the next model-visible call was its tool. */
  next?: ToolCall;
  /** Calls of its tool after the first invocation, in the same turn. */
  again: ToolCall[];
}

/** Every continuation tool call of the trace and how it was followed (C10, C13). */
function continuations(ctx: TraceContext): Followed[] {
  const out: Followed[] = [];
  for (const [turn, steps] of ctx.steps)
    steps.forEach((s, i) => {
      const c = s.call.code === "OK" ? s.call.continuation : undefined;
      if (!c) return;
      const field = ctx.facts.sessionField;
      const expected = {
        ...c.arguments,
        ...(field && s.call.session !== undefined && { [field]: s.call.session }),
      };
      const next = steps[i + 1]?.call;
      const followed: Followed = { turn, issuedBy: s.call, expected, again: [] };
      if (next && next.tool === c.name) {
        followed.next = next;
        followed.again = steps
          .slice(i + 2)
          .map((x) => x.call)
          .filter((x) => x.tool === c.name);
      } else if (next) followed.next = undefined;
      out.push(followed);
    });
  return out;
}

const memo = new WeakMap<TraceContext, Followed[]>();
const followedIn = (ctx: TraceContext) => {
  let f = memo.get(ctx);
  if (!f) {
    f = continuations(ctx);
    memo.set(ctx, f);
  }
  return f;
};

/** A continuation's tool call is invoked immediately, by the very next call (C10, C13, G4). */
export const continuationNotFollowed = traceRule(
  defineRule({
    id: "TRACE_CONTINUATION_NOT_FOLLOWED",
    family: "trace",
    severity: "error",
    summary:
      "A continuation's server-filled toolCall is invoked immediately: the very next call, in " +
      "the same turn (C10, C13, G4, G10).",
    message: {
      other: "turn {turn}: {tool} was called instead of the continuation's {expected}",
      never: "turn {turn}: the continuation's {expected} was never called",
    },
  }),
  (ctx, report) => {
    for (const f of followedIn(ctx)) {
      if (f.next) continue;
      const steps = ctx.steps.get(f.turn) ?? [];
      const i = steps.findIndex((s) => s.call === f.issuedBy);
      const other = steps[i + 1]?.call;
      const expected = String(ctxName(f));
      if (other) report(f.turn, { variant: "other", tool: other.tool, expected }, other.where);
      else
        report(
          f.turn,
          { variant: "never", expected },
          (f.issuedBy.answerWhere ?? f.issuedBy.where) as Location,
        );
    }
  },
);

const ctxName = (f: Followed) => f.issuedBy.continuation?.name;

/** Its arguments are copied unchanged, plus the current session handle only (C13). */
export const continuationAltered = traceRule(
  defineRule({
    id: "TRACE_CONTINUATION_ALTERED",
    family: "trace",
    severity: "error",
    summary:
      "A continuation's tool call is invoked with its server-filled arguments copied unchanged, " +
      "plus only the current learningSessionId (C13, C16, G4, G10).",
    message:
      "turn {turn}: {tool} was called with arguments {actual:json} instead of the " +
      "continuation's {expected:json}",
  }),
  (ctx, report) => {
    for (const f of followedIn(ctx))
      if (f.next && canonicalJsonCompact(f.next.args) !== canonicalJsonCompact(f.expected))
        report(
          f.turn,
          { tool: f.next.tool, actual: f.next.args, expected: f.expected },
          f.next.where,
        );
  },
);

/** It is invoked exactly once; a failed render is not retried (C13, G10). */
export const continuationRepeated = traceRule(
  defineRule({
    id: "TRACE_CONTINUATION_REPEATED",
    family: "trace",
    severity: "error",
    summary:
      "A continuation's tool call is invoked exactly once: not again in the turn, and a failed " +
      "render is not retried (C13, G10).",
    message: "turn {turn}: {tool} was called again after the continuation's call ({outcome})",
  }),
  (ctx, report) => {
    for (const f of followedIn(ctx))
      for (const again of f.again)
        report(
          f.turn,
          {
            tool: again.tool,
            outcome:
              f.next?.code === "OK"
                ? "which succeeded"
                : `which answered ${f.next?.code ?? "nothing"}`,
          },
          again.where,
        );
  },
);

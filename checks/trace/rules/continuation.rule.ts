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
  /** The next model-visible call of the turn, if any. */
  next?: ToolCall;
  /** Every later call of the continuation's tool in the turn, in order. */
  invocations: ToolCall[];
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
      const later = steps.slice(i + 1).map((x) => x.call);
      out.push({
        turn,
        issuedBy: s.call,
        expected,
        ...(later[0] && { next: later[0] }),
        invocations: later.filter((x) => x.tool === c.name),
      });
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
      const expected = String(f.issuedBy.continuation?.name);
      if (f.next && f.next.tool !== expected)
        report(f.turn, { variant: "other", tool: f.next.tool, expected }, f.next.where);
      else if (!f.next)
        report(
          f.turn,
          { variant: "never", expected },
          (f.issuedBy.answerWhere ?? f.issuedBy.where) as Location,
        );
    }
  },
);

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
    for (const f of followedIn(ctx)) {
      const [first] = f.invocations;
      if (first && canonicalJsonCompact(first.args) !== canonicalJsonCompact(f.expected))
        report(f.turn, { tool: first.tool, actual: first.args, expected: f.expected }, first.where);
    }
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
    for (const f of followedIn(ctx)) {
      const [first, ...again] = f.invocations;
      const outcome =
        first?.code === "OK" ? "which succeeded" : `which answered ${first?.code ?? "nothing"}`;
      for (const call of again) report(f.turn, { tool: call.tool, outcome }, call.where);
    }
  },
);

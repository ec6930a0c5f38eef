import type { Diagnostic, Location } from "../../diagnostics/diagnostic.js";
import type { MessageSpec, ParamsOf } from "../../diagnostics/message-template.js";
import { diagnose, type Rule } from "../../diagnostics/rule.js";
import type { TurnFacts } from "../../contract-model/trace/turn-facts.js";
import { hardErrorCodes, STATE_CONFLICT } from "./error-classes.js";
import type { ToolCall, Turn } from "./turn-model.js";

/** Where a model-visible call stands in its turn: what came before it. */
export interface Step {
  call: ToolCall;
  turn: Turn;
  /** The call reads the full context. */
  isRead: boolean;
  /** The call is a model-visible write. */
  isWrite: boolean;
  /** Context reads before it in the turn. */
  readsBefore: number;
  /** A STATE_CONFLICT came back since the last context read (or the turn's start). */
  conflictSinceRead: boolean;
  /** A write succeeded since the last context read (or the turn's start). */
  writeSinceRead: boolean;
  /** The previous model-visible call of the turn, when its answer came before this call. */
  previous?: ToolCall;
  /** Why structured calls had stopped before this one: a second conflict or a hard error. */
  stopped?: { by: "conflict" | "error"; code: string };
  /** Successful writes before it in the turn that no continuation chained. */
  mutationsBefore: number;
}

/** Everything a trace rule judges. */
export interface TraceContext {
  file: string;
  facts: TurnFacts;
  turns: readonly Turn[];
  /** The model-visible calls of each turn, in order, with their steps. */
  steps: ReadonlyMap<Turn, readonly Step[]>;
}

/** `Omit` that keeps a union of message variants apart. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Report a finding of one rule about one turn at an event. */
export type TraceReport<M extends MessageSpec> = (
  turn: Turn,
  params: OmitEach<ParamsOf<M>, "turn">,
  where: Location,
) => void;

/** One turn-contract rule: a rule of the one table and its check. */
export interface TraceRule {
  rule: Rule;
  check(ctx: TraceContext, emit: (d: Diagnostic) => void): void;
}

/** Attach a check to a trace rule declared with `defineRule`; messages get `{turn}`. */
export function traceRule<M extends MessageSpec>(
  rule: Rule<M>,
  check: (ctx: TraceContext, report: TraceReport<M>) => void,
): TraceRule {
  return {
    rule,
    check: (ctx, emit) =>
      check(ctx, (turn, params, where) =>
        emit(
          diagnose(rule, { ...params, turn: turn.number } as unknown as ParamsOf<M>, where, {
            data: { turn: turn.number, line: where.line ?? null },
          }),
        ),
      ),
  };
}

/** Whether `call`'s answer had arrived when `later` was sent. */
export const answeredBefore = (call: ToolCall, later: ToolCall): boolean =>
  call.answerSeq !== undefined && call.answerSeq < later.seq;

/**
 * The steps of a turn's model-visible calls (app-only widget calls are not the model's). What a
 * call "follows" is what had come back before it was sent: a host that sends calls concurrently is
 * judged on the answers it had.
 */
export function stepsOf(turn: Turn, facts: TurnFacts): Step[] {
  const visible = turn.calls.filter((c) => facts.tools.get(c.tool)?.kind !== "app-only");
  const answers = visible
    .filter((c) => c.answerSeq !== undefined)
    .sort((a, b) => (a.answerSeq ?? 0) - (b.answerSeq ?? 0));
  const steps: Step[] = [];
  let readsBefore = 0;
  let conflictSinceRead = false;
  let writeSinceRead = false;
  let conflicts = 0;
  let stopped: Step["stopped"];
  let mutations = 0;
  let applied = 0;
  let previous: ToolCall | undefined;
  const apply = (call: ToolCall) => {
    if (call.code === STATE_CONFLICT) {
      conflictSinceRead = true;
      if (++conflicts >= 2) stopped ??= { by: "conflict", code: call.code };
    } else if (call.code && hardErrorCodes.has(call.code))
      stopped ??= { by: "error", code: call.code };
    if (facts.tools.get(call.tool)?.kind === "write" && call.code === "OK") {
      writeSinceRead = true;
      if (!facts.chainedTools.has(call.tool)) mutations++;
    }
  };
  for (const call of visible) {
    while (applied < answers.length && (answers[applied].answerSeq ?? 0) < call.seq)
      apply(answers[applied++]);
    const isRead = facts.contextReads.has(call.tool);
    steps.push({
      call,
      turn,
      isRead,
      isWrite: facts.tools.get(call.tool)?.kind === "write",
      readsBefore,
      conflictSinceRead,
      writeSinceRead,
      ...(previous && answeredBefore(previous, call) && { previous }),
      ...(stopped && { stopped }),
      mutationsBefore: mutations,
    });
    if (isRead) {
      readsBefore++;
      conflictSinceRead = false;
      writeSinceRead = false;
    }
    previous = call;
  }
  return steps;
}

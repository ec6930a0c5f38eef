import { LRUCache } from "lru-cache";
import type { Counter } from "prom-client";
import type { TurnFacts } from "../../contract-model/trace/turn-facts.js";

/** The deviations the server can see on its own, from one session's calls. */
export type DeviationKind =
  | "context_repoll"
  | "context_after_write"
  | "continuation_not_followed"
  | "continuation_altered";

/** A full-context read this soon after the previous one, at the same stateVersion, is a re-poll. */
export const REPOLL_WINDOW_MS = 60_000;
/** Sessions whose recent calls are remembered (oldest forgotten first). */
const SESSIONS = 10_000;

interface SessionState {
  lastRead?: { at: number; stateVersion: unknown };
  /** The session's previous model-visible call was a successful write. */
  afterWrite: boolean;
  /** The tool call a continuation asked for, with the arguments it must carry. */
  continuation?: { name: string; args: string };
}

/** One call as the monitor sees it, after it was answered. */
export interface ObservedCall {
  tool: string;
  /** The validated arguments (the session handle is read from them, never logged). */
  args: unknown;
  /** "OK" or the stable error code. */
  code: string;
  /** The output of a successful call. */
  output?: unknown;
}

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** Stable JSON (sorted keys) of a flat argument object. */
const flat = (args: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(args)
      .sort()
      .map((k) => [k, args[k]]),
  );

/**
 * The live turn monitor (C2, C13, G10): per session, the deviations from the turn contract the
 * server can tell from its own traffic — a full-context read at an unchanged `stateVersion` within
 * {@link REPOLL_WINDOW_MS} of the previous one, a full-context read right after a successful write,
 * and a continuation whose tool call was not the next call or came with changed arguments. It
 * counts them (`coach_turn_contract_deviations_total{kind}`) and names them for the call's log
 * line; it never refuses a call. The facts (which tool reads the context, which write, where a
 * continuation sits) come from the contract it is given.
 */
export class TurnMonitor {
  private readonly sessions = new LRUCache<string, SessionState>({ max: SESSIONS });

  constructor(
    private readonly facts: TurnFacts,
    private readonly counter: Counter<"contractMajor" | "pluginLine" | "kind">,
    private readonly labels: { contractMajor: string; pluginLine: string },
    private readonly now: () => number = Date.now,
  ) {}

  /** Record one answered call; returns the deviation it shows, if any. */
  observe(call: ObservedCall): DeviationKind | undefined {
    const tool = this.facts.tools.get(call.tool);
    const sessionField = this.facts.sessionField;
    const session = sessionField ? field(call.args, sessionField) : undefined;
    if (!tool || tool.kind === "app-only" || typeof session !== "string") return undefined;
    let state = this.sessions.get(session);
    if (!state) {
      state = { afterWrite: false };
      this.sessions.set(session, state);
    }
    let deviation: DeviationKind | undefined;
    if (state.continuation) {
      const args = typeof call.args === "object" && call.args ? call.args : {};
      if (call.tool !== state.continuation.name) deviation = "continuation_not_followed";
      else if (flat(args as Record<string, unknown>) !== state.continuation.args)
        deviation = "continuation_altered";
      state.continuation = undefined;
    }
    const isRead = this.facts.contextReads.has(call.tool);
    const at = this.now();
    if (isRead && !deviation) {
      const version = field(call.output, "stateVersion");
      if (state.afterWrite) deviation = "context_after_write";
      else if (
        state.lastRead &&
        at - state.lastRead.at < REPOLL_WINDOW_MS &&
        call.code === "OK" &&
        version === state.lastRead.stateVersion
      )
        deviation = "context_repoll";
    }
    if (isRead && call.code === "OK")
      state.lastRead = { at, stateVersion: field(call.output, "stateVersion") };
    state.afterWrite = tool.kind === "write" && call.code === "OK";
    if (call.code === "OK")
      for (const key of tool.continuationAt) {
        const toolCall = field(field(call.output, key), "toolCall");
        const name = field(toolCall, "name");
        const args = field(toolCall, "arguments");
        if (typeof name === "string" && typeof args === "object" && args !== null && sessionField)
          state.continuation = { name, args: flat({ ...args, [sessionField]: session }) };
      }
    if (deviation) this.counter.inc({ ...this.labels, kind: deviation });
    return deviation;
  }
}

import { LRUCache } from "lru-cache";
import type { Counter } from "prom-client";
import type { TurnFacts } from "../../contract-model/trace/turn-facts.js";

/** The deviations the server can see on its own, from one session's calls. */
export type DeviationKind =
  | "context_repoll"
  | "context_after_write"
  | "continuation_not_followed"
  | "continuation_altered"
  | "recall_recorded_without_consent"
  | "successor_without_consent";

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
  /** Reads that revealed something since the last full-context read (a reveal's write waits). */
  revealed?: Set<string>;
  /** A continuation asked for the learner's consent and no full-context read came since. */
  consentAsked?: boolean;
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
 * a continuation whose tool call was not the next call or came with changed arguments, and calls
 * made without the learner's consent: a write recording what a read revealed (Verified Recall's
 * results after the reference answers) and any other call after a continuation with
 * `consentRequired: true`, each with no full-context read in between. The server sees no learner
 * messages; every learner message starts with a fresh full-context read (C2), so no read in
 * between means no learner message in between. It counts them
 * (`coach_turn_contract_deviations_total{kind}`) and names them for the call's log line; it never
 * refuses a call. The facts (which tool reads the context, which write, where a continuation sits,
 * which write records what a read revealed) come from the contract it is given.
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
    const unconsented = this.withoutConsent(state, call.tool, isRead);
    deviation ??= unconsented;
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
    if (call.code === "OK" && [...this.facts.revealedBy.values()].some((r) => r.has(call.tool))) {
      state.revealed ??= new Set();
      state.revealed.add(call.tool);
    }
    if (call.code === "OK")
      for (const key of tool.continuationAt) {
        if (field(field(call.output, key), "consentRequired") === true) state.consentAsked = true;
        const toolCall = field(field(call.output, key), "toolCall");
        const name = field(toolCall, "name");
        const args = field(toolCall, "arguments");
        if (typeof name === "string" && typeof args === "object" && args !== null && sessionField)
          state.continuation = { name, args: flat({ ...args, [sessionField]: session }) };
      }
    if (deviation) this.counter.inc({ ...this.labels, kind: deviation });
    return deviation;
  }

  /**
   * A call made without the learner's consent, judged before this call updates the state: a full
   * context read (a new learner message) clears what waits for consent.
   */
  private withoutConsent(
    state: SessionState,
    tool: string,
    isRead: boolean,
  ): DeviationKind | undefined {
    if (isRead) {
      state.revealed = undefined;
      state.consentAsked = undefined;
      return undefined;
    }
    const asked = state.consentAsked;
    state.consentAsked = undefined;
    const reads = this.facts.revealedBy.get(tool);
    if (reads && state.revealed && [...reads].some((r) => state.revealed?.has(r)))
      return "recall_recorded_without_consent";
    return asked ? "successor_without_consent" : undefined;
  }
}

import type { ToolInput, ToolName, ToolOutput } from "../../generated/handlers.gen.js";
import type { Receipt } from "../../generated/types.gen.js";
import { spendCapability, type Claims } from "../capability/index.js";
import { canonicalSha256 } from "../../contract-model/canonical.js";
import type { CallContext, HandlerDeps, OpenSession } from "./call-context.js";
import { type CallFacts, reported, reportingFailure, sessionFacts } from "./call-facts.js";
import type { GoalProgress, LearnerSnapshot, LearnerState } from "./learner-state.js";
import { openSession } from "./session-gate.js";
import { CoachError } from "../errors.js";
import { randomId } from "../random-pool.js";
import {
  StateVersionMismatch,
  type IdempotencyKey,
  type WriteOpening,
  type WriteTx,
} from "./ports/coach-store.js";
import { TxReplayStore } from "./tx-replay-store.js";

/** What a rule sees before the transaction (step 3). */
export interface AuthorizeContext {
  deps: HandlerDeps;
  session: OpenSession;
  now: Date;
}

/** What a rule sees inside the transaction (step 6). */
export interface ApplyContext<Auth> extends AuthorizeContext {
  /** The learner as of the locked state version. */
  snapshot: LearnerSnapshot;
  /** Whatever `authorize` returned (e.g. verified capability claims). */
  auth: Auth;
  /** For effects beyond state and progress (later workflows' own tables). */
  tx: WriteTx;
}

/** A rule's decision: the successor state, progress changes and a value for `respond`. */
export interface WriteEffect<Value> {
  state: LearnerState;
  progress?: GoalProgress[];
  value: Value;
}

/** The committed write, from which the answer is built (step 7). */
export interface CommittedWrite<Value> extends AuthorizeContext {
  value: Value;
  /** The learner after the commit (new stateVersion, new progress). */
  snapshot: LearnerSnapshot;
  receipt: Receipt;
}

/**
 * A write tool's domain rule. Validation, the session gate, idempotency, the optimistic lock, the
 * transaction, the receipt and the log line are the pipeline's; a rule only states its domain.
 */
export interface WriteRule<N extends ToolName, Auth = undefined, Value = undefined> {
  tool: N;
  /**
   * Step 3 hook: capability decrypt/completeness/staleness/replay checks. Throw a CoachError to
   * refuse; the result reaches `apply` as `auth`.
   */
  authorize?(input: ToolInput<N>, ctx: AuthorizeContext): Auth | Promise<Auth>;
  /**
   * Step 3, staleness against the locked state: first thing in the transaction, before the replay
   * check (e.g. a capability's batch binding, deferred by `authorize`). Throw to refuse.
   */
  bind?(auth: Auth, snapshot: LearnerSnapshot): void;
  /**
   * Step 3, replay: the single-use capability this call spends (claims checked by `authorize`).
   * It is spent inside the transaction under the input fingerprint: an exact retry passes on to
   * the stored answer, another request with the same token gets CAPABILITY_REPLAYED, and a call
   * refused later in the transaction leaves it unspent.
   */
  spends?(auth: Auth): Claims | undefined;
  /**
   * The idempotency key part chosen by the caller; default `input.clientRequestId`. Undefined: no
   * replay record.
   */
  requestKey?(input: ToolInput<N>, auth: Auth): string | undefined;
  /**
   * The version the caller based the write on; default `input.expectedStateVersion`. Undefined: no
   * lock.
   */
  expectedVersion?(input: ToolInput<N>, auth: Auth): number | undefined;
  /** Step 6: the domain rule. Throw a CoachError to refuse; nothing is persisted then. */
  apply(
    input: ToolInput<N>,
    ctx: ApplyContext<Auth>,
  ): WriteEffect<Value> | Promise<WriteEffect<Value>>;
  /** Step 7: the tool's output, built from the committed state. */
  respond(committed: CommittedWrite<Value>): ToolOutput<N>;
}

/** Keys of writes currently running in this process (REQUEST_IN_PROGRESS). */
const inFlight = new Set<string>();

function field(input: unknown, name: string): unknown {
  return (input as Record<string, unknown>)[name];
}

function newReceiptId(): string {
  return `rcp_${randomId(16)}`;
}

/**
 * Turn a rule into a handler of the generated interface. Input arrives validated (step 1, in the
 * dispatcher); this runs steps 2–7 of the write path: session gate → authorize → (in one
 * transaction) the learner read once → the rule's binding check → capability spend → idempotency →
 * optimistic lock → the domain effect, `stateVersion + 1`, the receipt and the idempotency record →
 * the answer. Any failure rolls the whole transaction back (C14). The answer, or what the handler
 * throws, carries the call's facts for its log line (the session, the client request id, the state
 * version read and then committed).
 */
export function writeHandler<N extends ToolName, Auth = undefined, Value = undefined>(
  rule: WriteRule<N, Auth, Value>,
) {
  return async (input: ToolInput<N>, ctx: CallContext): Promise<ToolOutput<N>> => {
    const sessionId = String(field(input, "learningSessionId"));
    const session = await openSession(sessionId, ctx);
    const facts = sessionFacts(session);
    return reportingFailure(facts, () => run(input, ctx, session, facts));
  };

  async function run(
    input: ToolInput<N>,
    ctx: CallContext,
    session: OpenSession,
    facts: CallFacts,
  ): Promise<ToolOutput<N>> {
    const { deps, now } = ctx;
    // The id the caller named, as the session gate found it.
    const sessionId = session.sessionId;
    const auth = rule.authorize
      ? await rule.authorize(input, { deps, session, now })
      : (undefined as Auth);
    const requestKey = rule.requestKey
      ? rule.requestKey(input, auth)
      : (field(input, "clientRequestId") as string | undefined);
    const expected = rule.expectedVersion
      ? rule.expectedVersion(input, auth)
      : (field(input, "expectedStateVersion") as number | undefined);
    if (typeof field(input, "clientRequestId") === "string")
      facts.clientRequestId = field(input, "clientRequestId") as string;

    const key: IdempotencyKey | undefined =
      requestKey === undefined
        ? undefined
        : // Keyed by the name called: an adapter's answer is the old tool's, never the new one's.
          { sessionId, toolName: ctx.calledTool ?? rule.tool, clientRequestId: requestKey };
    const flightKey = key && JSON.stringify([key.sessionId, key.toolName, key.clientRequestId]);
    if (flightKey && inFlight.has(flightKey)) throw new CoachError("REQUEST_IN_PROGRESS");
    const spent = rule.spends?.(auth);
    // The fingerprint is taken of the validated input only: unknown fields never got this far (C5).
    // Only a replay record or a capability spend needs it.
    const fingerprint = key || spent ? canonicalSha256({ tool: rule.tool, input }) : "";
    if (flightKey) inFlight.add(flightKey);
    try {
      // The reads the transaction starts with, so a database server gets them with its BEGIN.
      const opening: WriteOpening = {
        learnerId: session.learnerId,
        ...(key && { idempotency: { key, now: now.getTime() } }),
        ...(spent && { capabilityJti: spent.jti }),
      };
      const response = await deps.store.write(async (tx): Promise<string | ToolOutput<N>> => {
        const snapshot = await tx.loadLearner(session.learnerId);
        facts.stateVersion = snapshot.stateVersion;
        rule.bind?.(auth, snapshot);
        if (spent) await spendCapability(new TxReplayStore(tx), spent, fingerprint);
        if (key) {
          const stored = await tx.findIdempotency(key, now.getTime());
          if (stored) {
            if (stored.fingerprint !== fingerprint) throw new CoachError("IDEMPOTENCY_KEY_REUSED");
            ctx.answered = true;
            return stored.response;
          }
        }
        if (expected !== undefined && expected !== snapshot.stateVersion)
          throw new CoachError("STATE_CONFLICT");

        const effect = await rule.apply(input, { deps, session, now, snapshot, auth, tx });
        const at = now.toISOString();
        let nextVersion: number;
        try {
          nextVersion = await tx.saveState(
            session.learnerId,
            effect.state,
            snapshot.stateVersion,
            at,
          );
        } catch (error) {
          if (error instanceof StateVersionMismatch) throw new CoachError("STATE_CONFLICT");
          throw error;
        }
        for (const p of effect.progress ?? []) await tx.saveProgress(session.learnerId, p, at);
        const receipt: Receipt = {
          receiptId: newReceiptId(),
          operation: rule.tool,
          stateVersion: nextVersion,
          recordedAt: at,
        };
        await tx.insertReceipt({ ...receipt, learnerId: session.learnerId, sessionId });
        // The committed view, derived instead of re-read: the state and progress just written.
        const progress = new Map(snapshot.progress);
        for (const p of effect.progress ?? []) progress.set(p.goalId, p);
        const after: LearnerSnapshot = {
          learnerId: session.learnerId,
          stateVersion: nextVersion,
          state: effect.state,
          progress,
        };
        const respond = rule.respond({
          deps,
          session,
          now,
          value: effect.value,
          snapshot: after,
          receipt,
        });
        // The answer as this caller gets it, checked before commit: a refusal rolls the write back.
        const output = (ctx.answer ? await ctx.answer(respond) : respond) as ToolOutput<N>;
        ctx.answered = true;
        facts.stateVersion = nextVersion;
        if (!key) return output;
        const serialized = JSON.stringify(output);
        await tx.saveIdempotency({
          ...key,
          fingerprint,
          response: serialized,
          createdAt: at,
          expiresAt: now.getTime() + deps.idempotencyTtlSeconds * 1000,
        });
        return serialized;
      }, opening);
      // Parsing the stored text makes a first answer and its replay the same bytes (G6).
      const output =
        typeof response === "string" ? (JSON.parse(response) as ToolOutput<N>) : response;
      return reported(output, facts);
    } finally {
      if (flightKey) inFlight.delete(flightKey);
    }
  }
}

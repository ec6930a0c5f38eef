import pg from "pg";
import { learnerWrites, type LearnerWrites, rowAfter } from "./learner-row-cache.js";
import {
  combinedWrites,
  type HeldWrite,
  heldWrites,
  type LearnerRow,
  type NamedStatement,
  sameKey,
  toLearnerSnapshot,
  VERSION_MOVED,
} from "./postgres-statements.js";
import type { WriteOpening, WriteTx } from "../domain/ports/coach-store.js";

/**
 * A presumed write could not be used: the work needed the database before its commit, or what it
 * took on trust is not checked by what it writes, or the database refused it (`byDatabase`: the
 * row was stale). Nothing of it is committed; the store runs the work again the long way.
 */
export class PresumptionMissed extends Error {
  override name = "PresumptionMissed";
  constructor(readonly byDatabase = false) {
    super("the presumed learner row could not be used");
  }
}

/**
 * SQLSTATEs with which the database refuses a presumed write, having committed nothing of it: a
 * check failed (VERSION_MOVED), the token was spent meanwhile (unique violation), a conflict.
 */
const REFUSED = new Set([VERSION_MOVED, "23505", "40001", "40P01"]);

/**
 * Sends one statement as a SERIALIZABLE transaction of its own, resolving once the server has
 * committed it.
 */
export type SendStatement = (
  statement: NamedStatement & { values: unknown[] },
) => Promise<pg.QueryResult>;

/**
 * A write that presumes its learner's row is the one this instance last saw, instead of reading it
 * with BEGIN (postgres-store.ts keeps the rows, LearnerRowCache). The work's calls get that row, no
 * live idempotency record under the announced key and the announced token unspent; its writes are
 * held and go out at commit as one statement on its own: one round trip, no BEGIN, no COMMIT.
 *
 * The statement checks in the database everything presumed, and fails as a whole otherwise: the
 * state update matches the presumed version (every change to a learner's state or progress moves
 * it), the idempotency record is written only over no live one, the spend is a plain insert (a
 * spent token is a unique violation). One statement is atomic, and it runs as a SERIALIZABLE
 * transaction of its own (the store's connections for it are set so), like every write; a
 * serialization failure is a refusal too. Anything else the work asks of the database throws
 * PresumptionMissed before anything was sent.
 */
export class PresumedWrite {
  private readonly held: HeldWrite[] = [];
  private readonly heldRows = new Set<string>();
  private readonly learner: LearnerWrites = { progress: [] };
  private loaded = false;
  private keyLooked = false;
  private keyChecked = false;
  private spent = false;
  readonly api: WriteTx;

  constructor(
    private readonly opening: WriteOpening,
    private readonly row: LearnerRow,
  ) {
    const miss = async (): Promise<never> => {
      throw new PresumptionMissed();
    };
    const hold = async (w: HeldWrite) => {
      // Two writes of one row cannot share the statement.
      if (this.heldRows.has(w.row)) throw new PresumptionMissed();
      this.held.push(w);
      this.heldRows.add(w.row);
    };
    const presumed = opening.idempotency;
    this.api = {
      findSession: miss,
      ensureLearner: miss,
      insertSession: miss,
      claimPolicyRevision: miss,
      loadLearner: async (learnerId) => {
        if (learnerId !== opening.learnerId || this.loaded) return miss();
        this.loaded = true;
        this.learner.served = { learnerId, row };
        return toLearnerSnapshot(learnerId, row);
      },
      findIdempotency: async (key, now) => {
        if (!presumed || this.keyLooked || !sameKey(presumed.key, key) || presumed.now !== now)
          return miss();
        this.keyLooked = true;
        return undefined;
      },
      saveIdempotency: async (r) => {
        if (!presumed || !sameKey(presumed.key, r)) return miss();
        await hold(heldWrites.saveIdempotencyUnlessLive(r, presumed.now));
        this.keyChecked = true;
      },
      ...learnerWrites(hold, this.learner),
      spendCapability: async (jti, use, expiresAt) => {
        if (jti !== opening.capabilityJti || this.spent) return miss();
        this.spent = true;
        await hold(heldWrites.spend(jti, use, expiresAt));
        return "fresh";
      },
    };
  }

  /**
   * Send the held writes as one statement, committed once `send` resolves; PresumptionMissed when
   * they do not check what was presumed (nothing sent) or the database refused them.
   */
  async commit(send: SendStatement): Promise<void> {
    const state = this.learner.state;
    const checked =
      state?.learnerId === this.opening.learnerId &&
      state.from === this.row.state_version &&
      (!this.keyLooked || this.keyChecked);
    if (!checked) throw new PresumptionMissed();
    try {
      await send(combinedWrites(this.held));
    } catch (error) {
      if (error instanceof pg.DatabaseError && REFUSED.has(error.code ?? ""))
        throw new PresumptionMissed(true);
      throw error;
    }
  }

  /** The learner row as committed (see `rowAfter`). */
  learnerAfter(): { learnerId: number; row: LearnerRow } | undefined {
    return rowAfter(this.learner);
  }
}

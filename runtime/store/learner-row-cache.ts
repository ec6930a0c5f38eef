import { LRUCache } from "lru-cache";
import type { GoalProgress, WriteTx } from "../domain/ports/coach-store.js";
import type { ProgressTuple } from "./learner-row.js";
import { type HeldWrite, heldWrites, type LearnerRow } from "./postgres-statements.js";

/** Learners whose last row this instance keeps (a few KB each). */
const MAX_LEARNERS = 4096;
/**
 * How long a learner whose kept row was found stale is written the long way: another instance is
 * writing it too (a balancer without stickiness), so a presumed row would mostly miss.
 */
const CONTESTED_MS = 10_000;

interface Kept {
  row?: LearnerRow;
  /** Date.now() until which the row is not presumed. */
  contestedUntil: number;
}

/**
 * The learner rows this instance last read or committed, so that a write can presume its learner
 * unchanged and go out in one round trip (postgres-presumed-write.ts). Never trusted on its own:
 * the write that presumes a row checks its `state_version` in the database, in the statement that
 * writes, and every change to a learner's state or progress moves that version (the write
 * pipeline saves both together). A row of a lower version never replaces a kept one.
 */
export class LearnerRowCache {
  private readonly rows = new LRUCache<number, Kept>({ max: MAX_LEARNERS });

  /** The row to presume for a write, unless none is kept or the learner is contested. */
  presumable(learnerId: number, now = Date.now()): LearnerRow | undefined {
    const kept = this.rows.get(learnerId);
    return kept && kept.contestedUntil <= now ? kept.row : undefined;
  }

  /** Keep a row read or committed (ignored when an equal or later version is kept). */
  remember(learnerId: number, row: LearnerRow): void {
    const kept = this.rows.peek(learnerId);
    if (kept?.row && kept.row.state_version >= row.state_version) return;
    this.rows.set(learnerId, { row, contestedUntil: kept?.contestedUntil ?? 0 });
  }

  /** A presumed row was stale: forget it, and write this learner the long way for a while. */
  contest(learnerId: number, now = Date.now()): void {
    this.rows.set(learnerId, { contestedUntil: now + CONTESTED_MS });
  }
}

/** What a write did to its learner: the row the work loaded, the state and progress it wrote. */
export interface LearnerWrites {
  served?: { learnerId: number; row: LearnerRow };
  state?: { learnerId: number; from: number; stateJson: string };
  progress: { learnerId: number; progress: GoalProgress }[];
}

/**
 * The learner row a committed write leaves: the row it loaded, at the next version, with the state
 * it wrote and its progress upserted, goals in byte order (as the database's read returns them);
 * undefined when it wrote no state over the row it loaded.
 */
export function rowAfter(w: LearnerWrites): { learnerId: number; row: LearnerRow } | undefined {
  const { served, state } = w;
  if (!served || state?.learnerId !== served.learnerId) return undefined;
  if (state.from !== served.row.state_version) return undefined;
  const goals = new Map<string, ProgressTuple>(served.row.progress.map((t) => [t[0], t]));
  let added = false;
  for (const { learnerId, progress: p } of w.progress)
    if (learnerId === served.learnerId) {
      added ||= !goals.has(p.goalId);
      goals.set(p.goalId, [p.goalId, p.status, p.attempts, p.masteredAt]);
    }
  const tuples = [...goals.values()];
  if (added) tuples.sort((a, b) => byteOrder(a[0], b[0]));
  return {
    learnerId: served.learnerId,
    row: { state_version: state.from + 1, state_json: state.stateJson, progress: tuples },
  };
}

/**
 * The order of two strings' UTF-8 bytes (code point order): UTF-16 order, unless a surrogate is
 * involved.
 */
function byteOrder(a: string, b: string): number {
  if (SURROGATE.test(a) || SURROGATE.test(b))
    return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
  return a < b ? -1 : a > b ? 1 : 0;
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * The learner writes of a transaction that holds them (`hold`), noting in `noted` what they wrote
 * (the learner row it leaves: rowAfter).
 */
export function learnerWrites(
  hold: (w: HeldWrite) => Promise<void>,
  noted: LearnerWrites,
): Pick<WriteTx, "saveState" | "saveProgress" | "insertReceipt"> {
  return {
    saveState: async (learnerId, state, fromVersion, now) => {
      const stateJson = JSON.stringify(state);
      await hold(heldWrites.saveState(learnerId, stateJson, fromVersion, now));
      noted.state = { learnerId, from: fromVersion, stateJson };
      return fromVersion + 1;
    },
    saveProgress: async (learnerId, p, now) => {
      await hold(heldWrites.saveProgress(learnerId, p, now));
      noted.progress.push({ learnerId, progress: p });
    },
    insertReceipt: (r) => hold(heldWrites.insertReceipt(r)),
  };
}

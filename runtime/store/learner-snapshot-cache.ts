import { LRUCache } from "lru-cache";
import type { LearnerSnapshot } from "../domain/ports/coach-store.js";

/** Learners whose last committed snapshot the embedded store keeps (a few KB each). */
const MAX_LEARNERS = 4096;

/** Freeze a JSON value and everything in it, so a kept snapshot cannot be changed by a reader. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The learner snapshots the embedded store last read, so that a learner's next call skips the
 * read (the learner's row, its progress folded in as JSON, and parsing both). A kept snapshot is
 * exactly what the database holds as long as nothing wrote that learner since:
 * - the store's own writer forgets the learners a group wrote once it commits (`forget`), and
 *   everything after an administrative transaction, whose SQL it does not follow (`clear`);
 * - a commit by any other connection to the file (another process, the administrative knex)
 *   moves SQLite's `PRAGMA data_version` as the writer connection sees it (`dataVersion`): the
 *   next lookup then drops every kept snapshot.
 * The state, progress entries and snapshot are frozen; the progress `Map` is shared, and readers
 * copy it before changing anything (the write pipeline does).
 */
export class LearnerSnapshotCache {
  private readonly kept = new LRUCache<number, LearnerSnapshot>({ max: MAX_LEARNERS });
  private seen: number;

  constructor(private readonly dataVersion: () => number) {
    this.seen = dataVersion();
  }

  /** The kept snapshot of `learnerId`, unless another connection committed since it was kept. */
  get(learnerId: number): LearnerSnapshot | undefined {
    const version = this.dataVersion();
    if (version !== this.seen) {
      this.kept.clear();
      this.seen = version;
      return undefined;
    }
    return this.kept.get(learnerId);
  }

  /** Keep a snapshot just read of what is committed (frozen here). */
  keep(snapshot: LearnerSnapshot): LearnerSnapshot {
    deepFreeze(snapshot.state);
    for (const progress of snapshot.progress.values()) Object.freeze(progress);
    this.kept.set(snapshot.learnerId, Object.freeze(snapshot));
    return snapshot;
  }

  /** A commit wrote these learners. */
  forget(learnerIds: Iterable<number>): void {
    for (const id of learnerIds) this.kept.delete(id);
  }

  /** A commit may have written any learner. */
  clear(): void {
    this.kept.clear();
  }
}

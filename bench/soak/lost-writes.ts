import Database from "better-sqlite3";
import type { ActiveLearner } from "../runtime/coach-learners.js";
import type { AnsweredWrite } from "./soak-log.js";

/** What the database holds of the writes the server answered as saved. */
export interface WriteCheck {
  /** Writes answered as saved (receipts the clients hold). */
  answered: number;
  /** Receipts missing from the database, or found with another session or version. */
  lost: string[];
  /** Rows in the receipts table (set-up writes and seeded learners' included). */
  rows: number;
  /** Learners whose stored state version is not the one their last answered write returned. */
  versionMismatches: string[];
}

/**
 * Look every answered write up in the SQLite file `dbFile` (read-only, after the server stopped):
 * its receipt row with the same session and state version, and each writing learner's state
 * version equal to the one their last answered write returned.
 */
export function checkWrites(
  dbFile: string,
  receipts: ReadonlyMap<string, AnsweredWrite>,
  learners: readonly ActiveLearner[],
): WriteCheck {
  const db = new Database(dbFile, { readonly: true });
  try {
    const byId = db.prepare<[string], { session_id: string; state_version: number }>(
      "SELECT session_id, state_version FROM receipts WHERE receipt_id = ?",
    );
    const lost: string[] = [];
    for (const [receiptId, write] of receipts) {
      const row = byId.get(receiptId);
      if (row?.session_id !== write.sessionId || row.state_version !== write.stateVersion)
        lost.push(receiptId);
    }
    const versionOf = db.prepare<[string], { state_version: number }>(
      "SELECT s.state_version FROM learner_state s JOIN sessions x ON x.learner_id = s.learner_id " +
        "WHERE x.session_id = ?",
    );
    const versionMismatches = learners
      .filter((l) => versionOf.get(l.id)?.state_version !== l.version)
      .map(
        (l) =>
          `${l.id.slice(0, 8)}…: stored ${versionOf.get(l.id)?.state_version}, answered ${l.version}`,
      );
    const { n } = db.prepare("SELECT COUNT(*) AS n FROM receipts").get() as { n: number };
    return { answered: receipts.size, lost, rows: n, versionMismatches };
  } finally {
    db.close();
  }
}

import type Database from "better-sqlite3";
import { idempotencyValues, type IdempotencyRow, toIdempotencyRecord } from "./idempotency-row.js";
import { floorSql } from "./policy-floor.js";
import { type ProgressTuple, toSnapshot } from "./learner-row.js";
import { sessionValues, toSession, type SessionRow } from "./session-row.js";
import {
  type LearnerSnapshot,
  type ReceiptRecord,
  StateVersionMismatch,
  type WriteTx,
} from "../domain/ports/coach-store.js";

// The SQL of the embedded store's hot path: prepared statements, transaction control and the
// write transaction the pipeline sees (sqlite-store.ts owns connections and the group commit).

/**
 * A learner's state row with its progress rows folded in as JSON `[goal_id, status, attempts,
 * mastered_at]` tuples.
 */
interface LearnerRow {
  state_version: number;
  state_json: string;
  progress_json: string;
}

/** Prepared statements of one connection. */
export function statements(db: Database.Database) {
  return {
    session: db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE session_id = ?"),
    // One statement, so state and progress come from one snapshot without an explicit read
    // transaction (progress in primary-key order, as a plain SELECT of the table returns it).
    learner: db.prepare<[number, number], LearnerRow>(
      `SELECT state_version, state_json,
         (SELECT json_group_array(json_array(goal_id, status, attempts, mastered_at))
            FROM (SELECT goal_id, status, attempts, mastered_at FROM progress
                   WHERE learner_id = ? ORDER BY goal_id)) AS progress_json
       FROM learner_state WHERE learner_id = ?`,
    ),
    idempotency: db.prepare<[string, string, string, number], IdempotencyRow>(
      "SELECT fingerprint, response, created_at, expires_at FROM " +
        "idempotency_records WHERE session_id = ? AND tool_name = ? AND " +
        "client_request_id = ? AND expires_at > ?",
    ),
    // REPLACE: an expired record under the same key is overwritten by the new operation.
    saveIdempotency: db.prepare(
      "INSERT OR REPLACE INTO idempotency_records (session_id, tool_name, " +
        "client_request_id, fingerprint, response, created_at, expires_at) VALUES " +
        "(?, ?, ?, ?, ?, ?, ?)",
    ),
    saveState: db.prepare(
      "UPDATE learner_state SET state_version = ?, state_json = ?, updated_at = " +
        "? WHERE learner_id = ? AND state_version = ?",
    ),
    saveProgress: db.prepare(
      `INSERT INTO progress (learner_id, goal_id, status, attempts, mastered_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (learner_id, goal_id) DO UPDATE SET status = excluded.status,
         attempts = excluded.attempts, mastered_at = excluded.mastered_at,
         updated_at = excluded.updated_at`,
    ),
    receipt: db.prepare(
      "INSERT INTO receipts (receipt_id, learner_id, session_id, operation, " +
        "state_version, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    learnerByName: db.prepare<[string], { id: number }>(
      "SELECT id FROM learners WHERE external_name = ?",
    ),
    insertLearner: db.prepare("INSERT INTO learners (external_name, created_at) VALUES (?, ?)"),
    insertState: db.prepare(
      "INSERT INTO learner_state (learner_id, state_version, " +
        "state_schema_version, state_json, updated_at) VALUES (?, 1, ?, ?, ?)",
    ),
    insertSession: db.prepare(
      "INSERT INTO sessions (session_id, learner_id, locale, contract_major, " +
        "workflow_version, curriculum_revision, policy_revision, created_at, " +
        "expires_at, subject_issuer, subject, lane) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    purge: db.prepare("DELETE FROM idempotency_records WHERE expires_at <= ?"),
    spentBy: db.prepare<[string], { use_key: string }>(
      "SELECT use_key FROM spent_capabilities WHERE jti = ?",
    ),
    // A fresh token (the common case) costs this one statement; only a token seen before is looked
    // up.
    spend: db.prepare(
      "INSERT INTO spent_capabilities (jti, use_key, expires_at) VALUES (?, ?, " +
        "?) ON CONFLICT (jti) DO NOTHING",
    ),
    purgeSpent: db.prepare("DELETE FROM spent_capabilities WHERE expires_at <= ?"),
    floor: db.prepare<[string], { value: number }>(floorSql.read),
    raiseFloor: db.prepare<[string, number]>(floorSql.raise),
  };
}
export type Statements = ReturnType<typeof statements>;

/** Transaction control of the writer, prepared once: `exec` would parse the SQL on every write. */
export function transactionControl(db: Database.Database) {
  const prepared = (sql: string) => {
    const statement = db.prepare(sql);
    return () => void statement.run();
  };
  return {
    begin: prepared("BEGIN IMMEDIATE"),
    savepoint: prepared("SAVEPOINT write_op"),
    release: prepared("RELEASE write_op"),
    rollbackTo: prepared("ROLLBACK TO write_op"),
    commit: prepared("COMMIT"),
    rollback: prepared("ROLLBACK"),
  };
}

/** A learner's state and progress, read in one statement (one snapshot). */
export function readLearner(s: Statements, learnerId: number): LearnerSnapshot {
  const row = s.learner.get(learnerId, learnerId);
  if (!row) throw new Error("learner state missing");
  return toSnapshot(
    learnerId,
    row.state_version,
    row.state_json,
    JSON.parse(row.progress_json) as ProgressTuple[],
  );
}

/** The write transaction handed to the write pipeline, over the writer's statements. */
export function writeTx(s: Statements, stateSchemaVersion: number): WriteTx {
  return {
    findSession: async (id) => toSession(s.session.get(id)),
    loadLearner: async (learnerId) => readLearner(s, learnerId),
    findIdempotency: async (key, now) =>
      toIdempotencyRecord(
        key,
        s.idempotency.get(key.sessionId, key.toolName, key.clientRequestId, now),
      ),
    async saveIdempotency(r) {
      s.saveIdempotency.run(...idempotencyValues(r));
    },
    async saveState(learnerId, state, fromVersion, now) {
      const next = fromVersion + 1;
      if (s.saveState.run(next, JSON.stringify(state), now, learnerId, fromVersion).changes !== 1)
        throw new StateVersionMismatch();
      return next;
    },
    async saveProgress(learnerId, p, now) {
      s.saveProgress.run(learnerId, p.goalId, p.status, p.attempts, p.masteredAt, now);
    },
    async insertReceipt(r: ReceiptRecord) {
      s.receipt.run(
        r.receiptId,
        r.learnerId,
        r.sessionId,
        r.operation,
        r.stateVersion,
        r.recordedAt,
      );
    },
    async ensureLearner(name, initialState, now) {
      const existing = s.learnerByName.get(name);
      if (existing) return existing.id;
      const id = Number(s.insertLearner.run(name, now).lastInsertRowid);
      s.insertState.run(id, stateSchemaVersion, JSON.stringify(initialState), now);
      return id;
    },
    async spendCapability(jti, use, expiresAt) {
      if (s.spend.run(jti, use, expiresAt).changes === 1) return "fresh";
      return s.spentBy.get(jti)!.use_key === use ? "repeat" : "replayed";
    },
    async insertSession(r) {
      s.insertSession.run(...sessionValues(r));
    },
    async claimPolicyRevision(revision, key) {
      const stored = s.floor.get(key)?.value ?? 0;
      if (stored > revision) return stored;
      if (stored < revision) s.raiseFloor.run(key, revision);
      return revision;
    },
  };
}

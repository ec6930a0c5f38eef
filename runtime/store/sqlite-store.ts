import { mkdir } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import knexFactory from "knex";
import type { GoalProgress, LearnerSnapshot, LearnerState } from "../domain/learner-state.js";
import { migrationSource } from "./migrations/index.js";
import {
  StateVersionMismatch,
  type CoachStore,
  type IdempotencyKey,
  type IdempotencyRecord,
  type ReceiptRecord,
  type SessionRecord,
  type WriteTx,
} from "./store.js";

/** File name of the embedded database inside the data directory. */
export const databaseFileName = "skillpilot.sqlite";

const BUSY_TIMEOUT_MS = 5000;

/** Run the knex migrations against a SQLite file (creating it), then let knex go. */
export async function migrateSqlite(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const knex = knexFactory({ client: "better-sqlite3", connection: { filename: file }, useNullAsDefault: true });
  try {
    await knex.migrate.latest({ migrationSource });
  } finally {
    await knex.destroy();
  }
}

function openConnection(file: string): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // FULL: a commit is on disk before the caller sees its receipt (G7).
  db.pragma("synchronous = FULL");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma("foreign_keys = ON");
  return db;
}

interface SessionRow {
  session_id: string;
  learner_id: number;
  locale: "en" | "de";
  contract_major: number;
  workflow_version: string;
  curriculum_revision: string;
  policy_revision: number;
  created_at: string;
  expires_at: number;
}
interface ProgressRow {
  goal_id: string;
  status: GoalProgress["status"];
  attempts: number;
  mastered_at: string | null;
}
interface IdempotencyRow {
  fingerprint: string;
  response: string;
  created_at: string;
  expires_at: number;
}

/** Prepared statements of one connection. */
function statements(db: Database.Database) {
  return {
    session: db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE session_id = ?"),
    state: db.prepare<[number], { state_version: number; state_json: string }>("SELECT state_version, state_json FROM learner_state WHERE learner_id = ?"),
    progress: db.prepare<[number], ProgressRow>("SELECT goal_id, status, attempts, mastered_at FROM progress WHERE learner_id = ?"),
    idempotency: db.prepare<[string, string, string, number], IdempotencyRow>(
      "SELECT fingerprint, response, created_at, expires_at FROM idempotency_records WHERE session_id = ? AND tool_name = ? AND client_request_id = ? AND expires_at > ?",
    ),
    // REPLACE: an expired record under the same key is overwritten by the new operation.
    saveIdempotency: db.prepare(
      "INSERT OR REPLACE INTO idempotency_records (session_id, tool_name, client_request_id, fingerprint, response, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    saveState: db.prepare("UPDATE learner_state SET state_version = ?, state_json = ?, updated_at = ? WHERE learner_id = ? AND state_version = ?"),
    saveProgress: db.prepare(
      `INSERT INTO progress (learner_id, goal_id, status, attempts, mastered_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (learner_id, goal_id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts, mastered_at = excluded.mastered_at, updated_at = excluded.updated_at`,
    ),
    receipt: db.prepare("INSERT INTO receipts (receipt_id, learner_id, session_id, operation, state_version, recorded_at) VALUES (?, ?, ?, ?, ?, ?)"),
    learnerByName: db.prepare<[string], { id: number }>("SELECT id FROM learners WHERE external_name = ?"),
    insertLearner: db.prepare("INSERT INTO learners (external_name, created_at) VALUES (?, ?)"),
    insertState: db.prepare("INSERT INTO learner_state (learner_id, state_version, state_schema_version, state_json, updated_at) VALUES (?, 1, ?, ?, ?)"),
    insertSession: db.prepare(
      "INSERT INTO sessions (session_id, learner_id, locale, contract_major, workflow_version, curriculum_revision, policy_revision, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    purge: db.prepare("DELETE FROM idempotency_records WHERE expires_at <= ?"),
  };
}
type Statements = ReturnType<typeof statements>;

function toSession(row: SessionRow | undefined): SessionRecord | undefined {
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    learnerId: row.learner_id,
    locale: row.locale,
    contractMajor: row.contract_major,
    workflowVersion: row.workflow_version,
    curriculumRevision: row.curriculum_revision,
    policyRevision: row.policy_revision,
    createdAt: row.created_at,
    expiresAt: Number(row.expires_at),
  };
}

function readLearner(s: Statements, learnerId: number): LearnerSnapshot {
  const state = s.state.get(learnerId);
  if (!state) throw new Error("learner state missing");
  const progress = new Map<string, GoalProgress>();
  for (const row of s.progress.all(learnerId))
    progress.set(row.goal_id, { goalId: row.goal_id, status: row.status, attempts: row.attempts, masteredAt: row.mastered_at });
  return { learnerId, stateVersion: state.state_version, state: JSON.parse(state.state_json) as LearnerState, progress };
}

function writeTx(s: Statements, stateSchemaVersion: number): WriteTx {
  return {
    findSession: async (id) => toSession(s.session.get(id)),
    loadLearner: async (learnerId) => readLearner(s, learnerId),
    async findIdempotency(key: IdempotencyKey, now: number): Promise<IdempotencyRecord | undefined> {
      const row = s.idempotency.get(key.sessionId, key.toolName, key.clientRequestId, now);
      return row && { ...key, fingerprint: row.fingerprint, response: row.response, createdAt: row.created_at, expiresAt: Number(row.expires_at) };
    },
    async saveIdempotency(r) {
      s.saveIdempotency.run(r.sessionId, r.toolName, r.clientRequestId, r.fingerprint, r.response, r.createdAt, r.expiresAt);
    },
    async saveState(learnerId, state, fromVersion, now) {
      const next = fromVersion + 1;
      if (s.saveState.run(next, JSON.stringify(state), now, learnerId, fromVersion).changes !== 1) throw new StateVersionMismatch();
      return next;
    },
    async saveProgress(learnerId, p, now) {
      s.saveProgress.run(learnerId, p.goalId, p.status, p.attempts, p.masteredAt, now);
    },
    async insertReceipt(r: ReceiptRecord) {
      s.receipt.run(r.receiptId, r.learnerId, r.sessionId, r.operation, r.stateVersion, r.recordedAt);
    },
    async ensureLearner(name, initialState, now) {
      const existing = s.learnerByName.get(name);
      if (existing) return existing.id;
      const id = Number(s.insertLearner.run(name, now).lastInsertRowid);
      s.insertState.run(id, stateSchemaVersion, JSON.stringify(initialState), now);
      return id;
    },
    async insertSession(r) {
      s.insertSession.run(r.sessionId, r.learnerId, r.locale, r.contractMajor, r.workflowVersion, r.curriculumRevision, r.policyRevision, r.createdAt, r.expiresAt);
    },
  };
}

/**
 * The embedded store. knex owns the schema (migrations); the hot path uses two raw better-sqlite3
 * connections with prepared statements: one for reads, which only ever see committed data, and one
 * writer. Writes are serialized in-process and each opens with `BEGIN IMMEDIATE`, which takes the
 * write lock up front: knex would open a deferred BEGIN, and a read-then-write transaction under a
 * deferred BEGIN fails with SQLITE_BUSY under contention whatever busy_timeout says. Other
 * processes on the same file wait on busy_timeout instead of failing.
 */
export class SqliteStore implements CoachStore {
  readonly dialect = "sqlite" as const;
  private readonly reader: Database.Database;
  private readonly writer: Database.Database;
  private readonly read: Statements;
  private readonly writes: Statements;
  private readonly tx: WriteTx;
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(readonly file: string, stateSchemaVersion: number) {
    this.writer = openConnection(file);
    this.reader = openConnection(file);
    this.read = statements(this.reader);
    this.writes = statements(this.writer);
    this.tx = writeTx(this.writes, stateSchemaVersion);
  }

  /** Open (creating and migrating if needed) the database file. */
  static async open(file: string, stateSchemaVersion: number): Promise<SqliteStore> {
    await migrateSqlite(file);
    return new SqliteStore(file, stateSchemaVersion);
  }

  async findSession(sessionId: string): Promise<SessionRecord | undefined> {
    return toSession(this.read.session.get(sessionId));
  }

  async loadLearner(learnerId: number): Promise<LearnerSnapshot> {
    // One read transaction so state and progress come from the same snapshot.
    return this.reader.transaction(() => readLearner(this.read, learnerId))();
  }

  write<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.closed) throw new Error("store is closed");
      this.writer.exec("BEGIN IMMEDIATE");
      try {
        const result = await work(this.tx);
        this.writer.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.writer.inTransaction) this.writer.exec("ROLLBACK");
        throw error;
      }
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  async purgeExpired(now: number): Promise<number> {
    return this.write(async () => this.writes.purge.run(now).changes);
  }

  async close(): Promise<void> {
    await this.tail;
    this.closed = true;
    this.reader.close();
    this.writer.close();
  }
}

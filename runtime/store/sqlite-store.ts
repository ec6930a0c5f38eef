import { mkdir } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import knexFactory, { type Knex } from "knex";
import type { GoalProgress, LearnerSnapshot, LearnerState } from "../domain/learner-state.js";
import { migrationSource } from "./migrations/index.js";
import { SessionCache } from "./session-cache.js";
import { toSession, type SessionRow } from "./session-row.js";
import {
  StateVersionMismatch,
  type CoachStore,
  type IdempotencyKey,
  type IdempotencyRecord,
  type ReceiptRecord,
  type SessionRecord,
  type SqlExecutor,
  type WriteTx,
} from "./store.js";

/** File name of the embedded database inside the data directory. */
export const databaseFileName = "skillpilot.sqlite";

const BUSY_TIMEOUT_MS = 5000;
/** Upper bound of writes sharing one commit. */
const MAX_GROUP = 64;

/** Run the knex migrations against a SQLite file (creating it), then let knex go. */
export async function migrateSqlite(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const knex = knexFactory({
    client: "better-sqlite3",
    connection: { filename: file },
    useNullAsDefault: true,
  });
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

/**
 * A learner's state row with its progress rows folded in as JSON `[goal_id, status, attempts,
 * mastered_at]` tuples.
 */
interface LearnerRow {
  state_version: number;
  state_json: string;
  progress_json: string;
}
type ProgressTuple = [
  goalId: string,
  status: GoalProgress["status"],
  attempts: number,
  masteredAt: string | null,
];
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
        "expires_at, subject_issuer, subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
  };
}
type Statements = ReturnType<typeof statements>;

/** Transaction control of the writer, prepared once: `exec` would parse the SQL on every write. */
function transactionControl(db: Database.Database) {
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

function readLearner(s: Statements, learnerId: number): LearnerSnapshot {
  const row = s.learner.get(learnerId, learnerId);
  if (!row) throw new Error("learner state missing");
  const progress = new Map<string, GoalProgress>();
  for (const [goalId, status, attempts, masteredAt] of JSON.parse(
    row.progress_json,
  ) as ProgressTuple[])
    progress.set(goalId, { goalId, status, attempts, masteredAt });
  return {
    learnerId,
    stateVersion: row.state_version,
    state: JSON.parse(row.state_json) as LearnerState,
    progress,
  };
}

function writeTx(s: Statements, stateSchemaVersion: number): WriteTx {
  return {
    findSession: async (id) => toSession(s.session.get(id)),
    loadLearner: async (learnerId) => readLearner(s, learnerId),
    async findIdempotency(
      key: IdempotencyKey,
      now: number,
    ): Promise<IdempotencyRecord | undefined> {
      const row = s.idempotency.get(key.sessionId, key.toolName, key.clientRequestId, now);
      return (
        row && {
          ...key,
          fingerprint: row.fingerprint,
          response: row.response,
          createdAt: row.created_at,
          expiresAt: Number(row.expires_at),
        }
      );
    },
    async saveIdempotency(r) {
      s.saveIdempotency.run(
        r.sessionId,
        r.toolName,
        r.clientRequestId,
        r.fingerprint,
        r.response,
        r.createdAt,
        r.expiresAt,
      );
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
      s.insertSession.run(
        r.sessionId,
        r.learnerId,
        r.locale,
        r.contractMajor,
        r.workflowVersion,
        r.curriculumRevision,
        r.policyRevision,
        r.createdAt,
        r.expiresAt,
        r.subject?.issuer ?? null,
        r.subject?.sub ?? null,
      );
    },
  };
}

/**
 * Test-only crash hook (the crash harness, test/reliability/crash.ts): hold every group commit for
 * `delayMs` just before its COMMIT and again just after it, before any caller hears back, and mark
 * each window on stderr, so a SIGKILL can be aimed at an uncommitted transaction and at a committed
 * write whose answer is not out yet. Only `SKILLPILOT_TEST_COMMIT_DELAY_MS` turns it on (see
 * runtime/config/config.ts); never in production.
 */
export interface CommitDelayHook {
  delayMs: number;
}

/** The markers the crash harness waits for (one line each on stderr). */
export const commitWindowMarkers = {
  before: "skillpilot-test-hook: before-commit",
  after: "skillpilot-test-hook: after-commit",
} as const;

async function commitWindow(hook: CommitDelayHook, which: "before" | "after"): Promise<void> {
  process.stderr.write(`${commitWindowMarkers[which]}\n`);
  await new Promise((resolve) => setTimeout(resolve, hook.delayMs));
}

interface QueuedWrite {
  work: (tx: WriteTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The embedded store. knex owns the schema (migrations); the hot path uses two raw better-sqlite3
 * connections with prepared statements: one for reads, which only ever see committed data, and one
 * writer. Writes are serialized in-process (group-committed, see `drain`) and every transaction
 * opens with `BEGIN IMMEDIATE`, which takes the write lock up front: knex would open a deferred
 * BEGIN, and a read-then-write transaction under a deferred BEGIN fails with SQLITE_BUSY under
 * contention whatever busy_timeout says. Other processes on the same file wait on busy_timeout
 * instead of failing.
 */
export class SqliteStore implements CoachStore {
  readonly dialect = "sqlite" as const;
  private readonly reader: Database.Database;
  private readonly writer: Database.Database;
  private readonly read: Statements;
  private readonly writes: Statements;
  private readonly txControl: ReturnType<typeof transactionControl>;
  private readonly tx: WriteTx;
  private readonly queue: QueuedWrite[] = [];
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private closed = false;
  private adminKnex: Knex | undefined;
  private readonly sessions = new SessionCache();
  private readonly adminStatements = new Map<string, Database.Statement>();

  private constructor(
    readonly file: string,
    stateSchemaVersion: number,
    private readonly commitDelay?: CommitDelayHook,
  ) {
    this.writer = openConnection(file);
    this.reader = openConnection(file);
    this.read = statements(this.reader);
    this.writes = statements(this.writer);
    this.txControl = transactionControl(this.writer);
    this.tx = writeTx(this.writes, stateSchemaVersion);
  }

  /**
   * Open (creating and migrating if needed) the database file. `commitDelay` is the crash
   * harness's hook (see `CommitDelayHook`).
   */
  static async open(
    file: string,
    stateSchemaVersion: number,
    commitDelay?: CommitDelayHook,
  ): Promise<SqliteStore> {
    await migrateSqlite(file);
    return new SqliteStore(file, stateSchemaVersion, commitDelay);
  }

  async findSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.sessions.find(sessionId, async () => toSession(this.read.session.get(sessionId)));
  }

  async loadLearner(learnerId: number): Promise<LearnerSnapshot> {
    // A single statement: state and progress come from the same snapshot.
    return readLearner(this.read, learnerId);
  }

  write<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("store is closed"));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) this.drained = this.drain();
    });
  }

  /**
   * Group commit: writes that queued up while the previous commit ran share one `BEGIN IMMEDIATE`
   * transaction, each inside its own SAVEPOINT. A write that throws is rolled back to its savepoint
   * alone; the others see each other's effects exactly as if they had run one after another. One
   * COMMIT (one fsync under synchronous=FULL) then makes the whole group durable before any caller
   * hears back, so a receipt is never handed out for an uncommitted write.
   */
  private async drain(): Promise<void> {
    const txc = this.txControl;
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const group: {
          item: QueuedWrite;
          outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
        }[] = [];
        try {
          txc.begin();
          while (this.queue.length > 0 && group.length < MAX_GROUP) {
            const item = this.queue.shift()!;
            txc.savepoint();
            try {
              group.push({ item, outcome: { ok: true, value: await item.work(this.tx) } });
              txc.release();
            } catch (error) {
              txc.rollbackTo();
              txc.release();
              group.push({ item, outcome: { ok: false, error } });
            }
            // Linger one event-loop turn before committing, so writes of concurrent requests
            // can join this commit instead of each paying for its own fsync.
            if (this.queue.length === 0) await new Promise((resolve) => setImmediate(resolve));
          }
          if (this.commitDelay) await commitWindow(this.commitDelay, "before");
          txc.commit();
          if (this.commitDelay) await commitWindow(this.commitDelay, "after");
        } catch (error) {
          if (this.writer.inTransaction) txc.rollback();
          for (const { item } of group) item.reject(error);
          continue;
        }
        for (const { item, outcome } of group) {
          if (outcome.ok) item.resolve(outcome.value);
          else item.reject(outcome.error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  async purgeExpired(now: number): Promise<number> {
    return this.write(
      async () => this.writes.purge.run(now).changes + this.writes.purgeSpent.run(now).changes,
    );
  }

  adminTransaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    const db = this.writer;
    const statement = (sql: string) => {
      let s = this.adminStatements.get(sql);
      if (!s) {
        s = db.prepare(sql);
        this.adminStatements.set(sql, s);
      }
      return s;
    };
    // Queued with the domain writes: it runs inside the writer's transaction, never beside it.
    return this.write(() =>
      work({
        all: async <R>(sql: string, params: readonly unknown[] = []) =>
          statement(sql).all(...params) as R[],
        run: async (sql: string, params: readonly unknown[] = []) => {
          statement(sql).run(...params);
        },
      }),
    );
  }

  /** A knex on the same file for administrative work, opened on first use. */
  admin(): Knex {
    this.adminKnex ??= knexFactory({
      client: "better-sqlite3",
      connection: { filename: this.file },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn: Database.Database, done: (error: Error | null) => void) => {
          conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
          done(null);
        },
      },
    });
    return this.adminKnex;
  }

  async close(): Promise<void> {
    await this.adminKnex?.destroy();
    this.closed = true;
    await this.drained;
    this.reader.close();
    this.writer.close();
  }
}

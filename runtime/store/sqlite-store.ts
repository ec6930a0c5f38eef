import { mkdir } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import knexFactory, { type Knex } from "knex";
import type { LearnerSnapshot } from "../domain/learner-state.js";
import { migrationSource } from "./migrations/index.js";
import { SessionCache } from "./session-cache.js";
import { toSession } from "./session-row.js";
import {
  readLearner,
  type Statements,
  statements,
  transactionControl,
  writeTx,
} from "./sqlite-statements.js";
import type { CoachStore, SessionRecord, SqlExecutor, WriteTx } from "./store.js";

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

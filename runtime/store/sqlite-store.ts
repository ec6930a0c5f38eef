import { mkdir } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import knexFactory, { type Knex } from "knex";
import { migrationSource } from "./migrations/index.js";
import { SessionCache } from "./session-cache.js";
import { LearnerSnapshotCache } from "./learner-snapshot-cache.js";
import { type CommitDelayHook, commitWindow } from "./commit-delay-hook.js";
import { WalSync } from "./wal-sync.js";
import { toSession } from "./session-row.js";
import {
  readLearner,
  type Statements,
  statements,
  transactionControl,
  writeTx,
} from "./sqlite-statements.js";
import type {
  CoachStore,
  LearnerSnapshot,
  SessionRecord,
  SqlExecutor,
  WriteTx,
} from "../domain/ports/coach-store.js";

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

/**
 * A connection in WAL mode. The writer's COMMIT writes the WAL (synchronous=NORMAL) and the store
 * syncs the WAL file itself, off the event loop, before it answers (wal-sync.ts): a commit is on disk
 * before the caller sees its receipt (G7), as with synchronous=FULL. The reader never commits.
 */
function openConnection(file: string, synchronous: "NORMAL" | "FULL"): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma("foreign_keys = ON");
  return db;
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
  private readonly learners: LearnerSnapshotCache;
  private readonly adminStatements = new Map<string, Database.Statement>();
  private readonly walSync: WalSync;
  /**
   * Learners and sessions written by a commit that is not on disk yet, with the promise of its
   * sync: the reader connection could already see them, so reads of them wait for it (nothing
   * ever reads data a crash could take back). The writer's own reads need no wait: whatever
   * it answers waits for a sync that covers everything committed before.
   */
  private readonly unsyncedLearners = new Map<number, Promise<void>>();
  private readonly unsyncedSessions = new Map<string, Promise<void>>();
  /** What the group being built writes (learner ids, session ids). */
  private groupLearners = new Set<number>();
  private groupSessions = new Set<string>();
  /** The group ran an administrative transaction: it may have written any learner. */
  private groupUntracked = false;

  private constructor(
    readonly file: string,
    stateSchemaVersion: number,
    private readonly commitDelay?: CommitDelayHook,
  ) {
    this.writer = openConnection(file, "NORMAL");
    this.reader = openConnection(file, "FULL");
    this.walSync = new WalSync(file);
    this.read = statements(this.reader);
    this.writes = statements(this.writer);
    this.txControl = transactionControl(this.writer);
    const dataVersion = this.writer.prepare("PRAGMA data_version").pluck();
    this.learners = new LearnerSnapshotCache(() => dataVersion.get() as number);
    this.tx = this.tracked(writeTx(this.writes, stateSchemaVersion));
  }

  /**
   * The write transaction, noting which learners and sessions the group writes. A learner the
   * group has not written reads as committed, so its kept snapshot serves (and a read is kept).
   */
  private tracked(tx: WriteTx): WriteTx {
    const learners = () => this.groupLearners;
    return {
      ...tx,
      loadLearner: async (learnerId) => {
        if (this.groupUntracked || this.groupLearners.has(learnerId))
          return tx.loadLearner(learnerId);
        return this.learners.get(learnerId) ?? this.learners.keep(await tx.loadLearner(learnerId));
      },
      saveState: (learnerId, ...rest) => {
        learners().add(learnerId);
        return tx.saveState(learnerId, ...rest);
      },
      saveProgress: (learnerId, ...rest) => {
        learners().add(learnerId);
        return tx.saveProgress(learnerId, ...rest);
      },
      ensureLearner: async (...args) => {
        const id = await tx.ensureLearner(...args);
        learners().add(id);
        return id;
      },
      insertSession: (session) => {
        this.groupSessions.add(session.sessionId);
        return tx.insertSession(session);
      },
    };
  }

  /** Wait until the last commit that wrote `key` is on disk (at once when none is pending). */
  private static async synced<K>(pending: Map<K, Promise<void>>, key: K): Promise<void> {
    const sync = pending.get(key);
    if (sync !== undefined) await sync;
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
    return this.sessions.find(sessionId, async () => {
      await SqliteStore.synced(this.unsyncedSessions, sessionId);
      return toSession(this.read.session.get(sessionId));
    });
  }

  async loadLearner(learnerId: number): Promise<LearnerSnapshot> {
    await SqliteStore.synced(this.unsyncedLearners, learnerId);
    // A single statement: state and progress come from the same snapshot.
    return this.learners.get(learnerId) ?? this.learners.keep(readLearner(this.read, learnerId));
  }

  write<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("store is closed"));
    // After a failed sync nothing committed since can be promised to be on disk: fail stop.
    if (this.walSync.failed !== undefined) return Promise.reject(this.walSync.failed);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) this.drained = this.drain();
    });
  }

  /**
   * Group commit: writes that queued up while the previous commit ran share one `BEGIN IMMEDIATE`
   * transaction, each inside its own SAVEPOINT. A write that throws is rolled back to its savepoint
   * alone; the others see each other's effects exactly as if they had run one after another. One
   * COMMIT and one WAL sync (wal-sync.ts, off the event loop; groups that commit while a sync runs
   * share the next) then make the whole group durable before any caller hears back, so a receipt
   * is never handed out for a write that is not on disk. The next group is built meanwhile.
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
        this.groupLearners = new Set();
        this.groupSessions = new Set();
        this.groupUntracked = false;
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
            // can join this commit instead of each paying for its own.
            if (this.queue.length === 0) await new Promise((resolve) => setImmediate(resolve));
          }
          if (this.commitDelay) await commitWindow(this.commitDelay, "before");
          txc.commit();
          if (this.groupUntracked) this.learners.clear();
          else this.learners.forget(this.groupLearners);
        } catch (error) {
          if (this.writer.inTransaction) txc.rollback();
          for (const { item } of group) item.reject(error);
          continue;
        }
        const synced = this.unsynced(this.walSync.afterCommit());
        const answer = () => {
          for (const { item, outcome } of group) {
            if (outcome.ok) item.resolve(outcome.value);
            else item.reject(outcome.error);
          }
        };
        const fail = (error: unknown) => {
          for (const { item } of group) item.reject(error);
        };
        if (this.commitDelay) {
          // The harness's second window: committed and on disk, nobody answered yet.
          const ok = await synced.then(
            () => true,
            (error: unknown) => {
              fail(error);
              return false;
            },
          );
          if (!ok) continue;
          await commitWindow(this.commitDelay, "after");
          answer();
        }
        // The next group is built while this one's sync runs; its writers hear back after it.
        else synced.then(answer, fail);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Until `synced` settles, reads of what the group wrote wait for it. */
  private unsynced(synced: Promise<void>): Promise<void> {
    for (const id of this.groupLearners) this.unsyncedLearners.set(id, synced);
    for (const id of this.groupSessions) this.unsyncedSessions.set(id, synced);
    const learners = this.groupLearners;
    const sessions = this.groupSessions;
    const forget = () => {
      for (const id of learners)
        if (this.unsyncedLearners.get(id) === synced) this.unsyncedLearners.delete(id);
      for (const id of sessions)
        if (this.unsyncedSessions.get(id) === synced) this.unsyncedSessions.delete(id);
    };
    // A failed sync keeps them: what it covered may not be on disk, so it is not read either.
    synced.then(forget, () => undefined);
    return synced;
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
    return this.write(() => {
      this.groupUntracked = true;
      return work({
        all: async <R>(sql: string, params: readonly unknown[] = []) =>
          statement(sql).all(...params) as R[],
        run: async (sql: string, params: readonly unknown[] = []) => {
          statement(sql).run(...params);
        },
      });
    });
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
    await this.walSync.close();
    this.reader.close();
    this.writer.close();
  }
}

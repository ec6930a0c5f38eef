import knexFactory, { type Knex } from "knex";
import pg from "pg";
import { serializeMigrations } from "./migration-lock.js";
import { migrationSource } from "./migrations/index.js";
import { type LearnerRow, statements, toLearnerSnapshot } from "./postgres-statements.js";
import { LearnerRowCache } from "./learner-row-cache.js";
import { SERIALIZABLE_SESSION, SharedPipeline } from "./postgres-pipeline.js";
import { PresumedWrite, PresumptionMissed } from "./postgres-presumed-write.js";
import { PostgresWriteTx } from "./postgres-write-tx.js";
import { SessionCache } from "./session-cache.js";
import { toSession, type SessionRow } from "./session-row.js";
import type {
  CoachStore,
  LearnerSnapshot,
  SessionRecord,
  SqlExecutor,
  WriteOpening,
  WriteTx,
} from "../domain/ports/coach-store.js";

/** SQLSTATEs after which a SERIALIZABLE transaction is simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
/**
 * Bounded in time, not in attempts: how many attempts a conflict needs depends on how long each
 * transaction takes, which a loaded machine stretches. Past this the conflict surfaces as an
 * internal error rather than spinning.
 */
const RETRY_FOR_MS = 10_000;
/** Upper bound of the random back-off between attempts (full jitter, doubling from 2 ms). */
const MAX_BACKOFF_MS = 250;
/** True for a serialization failure or deadlock, which a SERIALIZABLE client retries. */
function retryable(error: unknown): boolean {
  return RETRYABLE.has(String((error as { code?: unknown })?.code ?? ""));
}

/** Connections of the serving pool (tool calls); knex keeps a small one for administration. */
const SERVING_CONNECTIONS = 10;
/** Connections shared by reads, and by presumed writes (each set), pipelined. */
const SHARED_CONNECTIONS = 2;
const ADMIN_CONNECTIONS = 3;

/**
 * The scale-out store: the same schema and migrations on PostgreSQL. knex owns the schema
 * (migrations) and the administrative work; tool calls run on `pg` connections of their own, in the
 * driver's pipeline mode, with named statements, prepared once per connection, in as few round
 * trips as possible: a read is one round trip on the shared connections (postgres-pipeline.ts), a
 * write of the write pipeline two on a pooled one (postgres-write-tx.ts: BEGIN with the reads it
 * announced; all its writes in one statement with COMMIT). Every write transaction
 * runs under SERIALIZABLE and is retried (bounded, with jitter) on 40001/40P01, so concurrent
 * read-then-write transactions never lose an update; READ COMMITTED would. A write's `work` may
 * therefore run more than once and must keep its effects inside the transaction.
 *
 * A write whose learner this instance read or wrote last presumes that row
 * (postgres-presumed-write.ts): its writes go out as one checked statement, a SERIALIZABLE
 * transaction of its own on connections presumed writes share, in one round trip. When the row
 * was stale (another instance wrote the learner) the database refuses that statement, nothing of
 * it is committed, and the work runs again the long way; such a learner is written the long way
 * for a while.
 */
export class PostgresStore implements CoachStore {
  readonly dialect = "postgres" as const;
  private readonly sessions = new SessionCache();
  /** The learner rows this instance last read or wrote, presumed by its next write to them. */
  private readonly learners = new LearnerRowCache();

  private constructor(
    private readonly knex: Knex,
    private readonly pool: pg.Pool,
    private readonly shared: SharedPipeline,
    private readonly presumedWrites: SharedPipeline,
    private readonly stateSchemaVersion: number,
  ) {}

  /** Connect and migrate (one node at a time, see `serializeMigrations`). */
  static async open(connection: string, stateSchemaVersion: number): Promise<PostgresStore> {
    const knex = knexFactory({
      client: "pg",
      connection,
      pool: { min: 0, max: ADMIN_CONNECTIONS },
    });
    try {
      await serializeMigrations(knex, () => knex.migrate.latest({ migrationSource }));
    } catch (error) {
      await knex.destroy();
      throw error;
    }
    // Pipeline mode: a transaction sends what is due together and waits once (postgres-write-tx.ts).
    const pool = new pg.Pool({
      connectionString: connection,
      max: SERVING_CONNECTIONS,
      pipeline: true,
    });
    // An idle connection the server dropped: the pool discards it, the next call gets a new one.
    pool.on("error", () => undefined);
    return new PostgresStore(
      knex,
      pool,
      new SharedPipeline(connection, SHARED_CONNECTIONS),
      // A presumed write is a SERIALIZABLE transaction of its own, like every write.
      new SharedPipeline(connection, SHARED_CONNECTIONS, SERIALIZABLE_SESSION),
      stateSchemaVersion,
    );
  }

  async findSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.sessions.find(sessionId, async () =>
      toSession(
        (await this.shared.query<SessionRow>({ ...statements.session, values: [sessionId] }))
          .rows[0],
      ),
    );
  }

  async loadLearner(learnerId: number): Promise<LearnerSnapshot> {
    // A single statement: state and progress come from the same snapshot.
    const { rows } = await this.shared.query<LearnerRow>({
      ...statements.learner,
      values: [learnerId],
    });
    if (rows[0]) this.learners.remember(learnerId, rows[0]);
    return toLearnerSnapshot(learnerId, rows[0]);
  }

  async write<T>(work: (tx: WriteTx) => Promise<T>, opening?: WriteOpening): Promise<T> {
    const presumable = opening && this.learners.presumable(opening.learnerId);
    if (presumable) {
      const done = await this.presumedAttempt(work, opening, presumable);
      if (done) return done.value;
    }
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(work, opening);
      } catch (error) {
        if (!retryable(error) || Date.now() >= giveUpAt) throw error;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt)),
        );
      }
    }
  }

  /**
   * One attempt: the work in one transaction on one connection, committed or rolled back; what
   * `opening` announces is read first, with BEGIN.
   */
  private async attempt<T>(
    work: (tx: WriteTx) => Promise<T>,
    opening: WriteOpening | undefined,
  ): Promise<T> {
    const client = await this.pool.connect();
    const tx = new PostgresWriteTx(client, this.stateSchemaVersion);
    let reusable = true;
    try {
      if (opening) {
        const read = await tx.open(opening);
        if (read) this.learners.remember(opening.learnerId, read);
      }
      const value = await work(tx.api);
      await tx.commit();
      this.keep(tx);
      return value;
    } catch (error) {
      reusable = await tx.rollback();
      throw error;
    } finally {
      client.release(!reusable);
    }
  }

  /**
   * The work on a presumed learner row, in one round trip; undefined when the presumption could not
   * be used, with nothing committed (the work's own refusals included: they may come from a stale
   * row, so the long way decides them).
   */
  private async presumedAttempt<T>(
    work: (tx: WriteTx) => Promise<T>,
    opening: WriteOpening,
    row: LearnerRow,
  ): Promise<{ value: T } | undefined> {
    const write = new PresumedWrite(opening, row);
    // Nothing goes out before the commit, so a failure of the work leaves nothing to undo.
    const done = await work(write.api).then(
      (value) => ({ value }),
      () => undefined,
    );
    if (!done) return undefined;
    try {
      await write.commit((statement) => this.presumedWrites.query(statement));
    } catch (error) {
      if (!(error instanceof PresumptionMissed)) throw error;
      if (error.byDatabase) this.learners.contest(opening.learnerId);
      return undefined;
    }
    this.keep(write);
    return done;
  }

  /** Keep the learner row a committed transaction leaves. */
  private keep(tx: PostgresWriteTx | PresumedWrite): void {
    const after = tx.learnerAfter();
    if (after) this.learners.remember(after.learnerId, after.row);
  }

  async purgeExpired(now: number): Promise<number> {
    const keys = await this.knex("idempotency_records").where("expires_at", "<=", now).delete();
    return keys + (await this.knex("spent_capabilities").where("expires_at", "<=", now).delete());
  }

  adminTransaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    return this.knex.transaction((trx) =>
      work({
        all: async <R>(sql: string, params: readonly unknown[] = []) =>
          ((await trx.raw(sql, params as Knex.RawBinding[])) as { rows: R[] }).rows,
        run: async (sql: string, params: readonly unknown[] = []) => {
          await trx.raw(sql, params as Knex.RawBinding[]);
        },
      }),
    );
  }

  /** The store's own knex: administrative work shares its pool. */
  admin(): Knex {
    return this.knex;
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.shared.close();
    await this.presumedWrites.close();
    await this.knex.destroy();
  }
}

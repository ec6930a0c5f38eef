import knexFactory, { type Knex } from "knex";
import type { GoalProgress, LearnerSnapshot } from "../domain/learner-state.js";
import { migrationSource } from "./migrations/index.js";
import { SessionCache } from "./session-cache.js";
import { toSession, type SessionRow } from "./session-row.js";
import { toIdempotencyRecord } from "./idempotency-row.js";
import { floorSql } from "./policy-floor.js";
import {
  StateVersionMismatch,
  type CoachStore,
  type IdempotencyRecord,
  type SessionRecord,
  type SqlExecutor,
  type WriteTx,
} from "./store.js";

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
/**
 * Key of the PostgreSQL advisory lock that serializes migrations between nodes (an arbitrary
 * constant of this application).
 */
const MIGRATION_LOCK_KEY = 0x5c111a7;

/**
 * Run the migrations while holding a transaction-scoped advisory lock, so nodes starting at once
 * on one database migrate one after another: the first applies what is missing, the others find
 * nothing left. Without it, knex's own migration lock is created by each node racing the others
 * (`CREATE TABLE knex_migrations…` fails with a duplicate) and a start fails at random.
 */
async function migrateExclusively(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK_KEY]);
    // On another pooled connection; the lock is held by this transaction until it commits.
    await knex.migrate.latest({ migrationSource });
  });
}

async function readLearner(
  db: Knex | Knex.Transaction,
  learnerId: number,
): Promise<LearnerSnapshot> {
  const state = await db("learner_state")
    .where({ learner_id: learnerId })
    .first<{ state_version: number; state_json: string } | undefined>();
  if (!state) throw new Error("learner state missing");
  const rows = await db("progress").where({ learner_id: learnerId }).select<
    {
      goal_id: string;
      status: GoalProgress["status"];
      attempts: number;
      mastered_at: string | null;
    }[]
  >();
  const progress = new Map(
    rows.map((r) => [
      r.goal_id,
      { goalId: r.goal_id, status: r.status, attempts: r.attempts, masteredAt: r.mastered_at },
    ]),
  );
  return {
    learnerId,
    stateVersion: state.state_version,
    state: JSON.parse(state.state_json),
    progress,
  };
}

function writeTx(trx: Knex.Transaction, stateSchemaVersion: number): WriteTx {
  return {
    findSession: async (id) =>
      toSession(await trx("sessions").where({ session_id: id }).first<SessionRow | undefined>()),
    loadLearner: (learnerId) => readLearner(trx, learnerId),
    async findIdempotency(key, now): Promise<IdempotencyRecord | undefined> {
      const row = await trx("idempotency_records")
        .where({
          session_id: key.sessionId,
          tool_name: key.toolName,
          client_request_id: key.clientRequestId,
        })
        .andWhere("expires_at", ">", now)
        .first();
      return toIdempotencyRecord(key, row);
    },
    async saveIdempotency(r) {
      await trx("idempotency_records")
        .insert({
          session_id: r.sessionId,
          tool_name: r.toolName,
          client_request_id: r.clientRequestId,
          fingerprint: r.fingerprint,
          response: r.response,
          created_at: r.createdAt,
          expires_at: r.expiresAt,
        })
        .onConflict(["session_id", "tool_name", "client_request_id"])
        .merge();
    },
    async saveState(learnerId, state, fromVersion, now) {
      const next = fromVersion + 1;
      const changed = await trx("learner_state")
        .where({ learner_id: learnerId, state_version: fromVersion })
        .update({ state_version: next, state_json: JSON.stringify(state), updated_at: now });
      if (changed !== 1) throw new StateVersionMismatch();
      return next;
    },
    async saveProgress(learnerId, p, now) {
      await trx("progress")
        .insert({
          learner_id: learnerId,
          goal_id: p.goalId,
          status: p.status,
          attempts: p.attempts,
          mastered_at: p.masteredAt,
          updated_at: now,
        })
        .onConflict(["learner_id", "goal_id"])
        .merge();
    },
    async insertReceipt(r) {
      await trx("receipts").insert({
        receipt_id: r.receiptId,
        learner_id: r.learnerId,
        session_id: r.sessionId,
        operation: r.operation,
        state_version: r.stateVersion,
        recorded_at: r.recordedAt,
      });
    },
    async ensureLearner(name, initialState, now) {
      const existing = await trx("learners")
        .where({ external_name: name })
        .first<{ id: number } | undefined>();
      if (existing) return existing.id;
      const [{ id }] = await trx("learners")
        .insert({ external_name: name, created_at: now })
        .returning<{ id: number }[]>("id");
      await trx("learner_state").insert({
        learner_id: id,
        state_version: 1,
        state_schema_version: stateSchemaVersion,
        state_json: JSON.stringify(initialState),
        updated_at: now,
      });
      return id;
    },
    async spendCapability(jti, use, expiresAt) {
      const seen = await trx("spent_capabilities")
        .where({ jti })
        .first<{ use_key: string } | undefined>();
      if (seen) return seen.use_key === use ? "repeat" : "replayed";
      await trx("spent_capabilities").insert({ jti, use_key: use, expires_at: expiresAt });
      return "fresh";
    },
    async insertSession(r) {
      await trx("sessions").insert({
        session_id: r.sessionId,
        learner_id: r.learnerId,
        locale: r.locale,
        contract_major: r.contractMajor,
        workflow_version: r.workflowVersion,
        curriculum_revision: r.curriculumRevision,
        policy_revision: r.policyRevision,
        created_at: r.createdAt,
        expires_at: r.expiresAt,
        subject_issuer: r.subject?.issuer ?? null,
        subject: r.subject?.sub ?? null,
      });
    },
    async claimPolicyRevision(revision, key) {
      const { rows } = (await trx.raw(floorSql.read, [key])) as { rows: { value: string }[] };
      const stored = Number(rows[0]?.value ?? 0);
      if (stored > revision) return stored;
      // Under SERIALIZABLE: a concurrent launch that raises it too conflicts and is retried.
      if (stored < revision) await trx.raw(floorSql.raise, [key, revision]);
      return revision;
    },
  };
}

/** True for a serialization failure or deadlock, which a SERIALIZABLE client retries. */
function retryable(error: unknown): boolean {
  return RETRYABLE.has(String((error as { code?: unknown })?.code ?? ""));
}

/**
 * The scale-out store: the same schema and migrations on PostgreSQL through knex. Every write runs
 * under SERIALIZABLE and is retried (bounded, with jitter) on 40001/40P01, so concurrent
 * read-then-write transactions never lose an update; READ COMMITTED would. A write's `work` may
 * therefore run more than once and must keep its effects inside the transaction.
 */
export class PostgresStore implements CoachStore {
  readonly dialect = "postgres" as const;
  private readonly sessions = new SessionCache();

  private constructor(
    private readonly knex: Knex,
    private readonly stateSchemaVersion: number,
  ) {}

  /** Connect and migrate (one node at a time, see `migrateExclusively`). */
  static async open(connection: string, stateSchemaVersion: number): Promise<PostgresStore> {
    const knex = knexFactory({ client: "pg", connection, pool: { min: 0, max: 10 } });
    try {
      await migrateExclusively(knex);
    } catch (error) {
      await knex.destroy();
      throw error;
    }
    return new PostgresStore(knex, stateSchemaVersion);
  }

  async findSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.sessions.find(sessionId, async () =>
      toSession(
        await this.knex("sessions")
          .where({ session_id: sessionId })
          .first<SessionRow | undefined>(),
      ),
    );
  }

  async loadLearner(learnerId: number): Promise<LearnerSnapshot> {
    // One REPEATABLE READ snapshot, so state and progress agree.
    return this.knex.transaction((trx) => readLearner(trx, learnerId), {
      isolationLevel: "repeatable read",
      readOnly: true,
    });
  }

  async write<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.knex.transaction((trx) => work(writeTx(trx, this.stateSchemaVersion)), {
          isolationLevel: "serializable",
        });
      } catch (error) {
        if (!retryable(error) || Date.now() >= giveUpAt) throw error;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt)),
        );
      }
    }
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
    await this.knex.destroy();
  }
}

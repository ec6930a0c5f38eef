import type { Knex } from "knex";
import type { ReplayVerdict } from "../../capability/index.js";
import type { GoalProgress, LearnerSnapshot, LearnerState } from "../learner-state.js";

/**
 * The domain's port to persistence: what the domain needs from a store, declared here and
 * implemented by `runtime/store/` (SQLite, PostgreSQL), which imports only this folder of the
 * domain. The learner shapes a store persists are re-exported for it.
 */
export type { GoalProgress, LearnerSnapshot, LearnerState };
import type { Locale } from "../../i18n/index.js";

/** A learning session as launched by the first party; pinned versions never change (L8). */
export interface SessionRecord {
  sessionId: string;
  /** Internal; never leaves the backend (C15). */
  learnerId: number;
  locale: Locale;
  contractMajor: number;
  workflowVersion: string;
  curriculumRevision: string;
  policyRevision: number;
  createdAt: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /**
   * The signed-in subject the session was launched for (L14): calls must carry this subject's
   * token. Absent on sessions from before OAuth, which no token can use.
   */
  subject?: { issuer: string; sub: string };
  /**
   * The provider lane the session was launched for; only calls on that lane's endpoint may use it.
   * Absent: the openai lane.
   */
  lane?: string;
}

/** Idempotency key of a write: (session, tool, clientRequestId) (G6). */
export interface IdempotencyKey {
  sessionId: string;
  toolName: string;
  clientRequestId: string;
}

/** A committed write's stored answer, replayed byte for byte on an exact retry. */
export interface IdempotencyRecord extends IdempotencyKey {
  /** sha256 of the canonical validated input. */
  fingerprint: string;
  /** The serialized tool output. */
  response: string;
  createdAt: string;
  /** Epoch milliseconds; after this the key counts as unused (PT1H retention). */
  expiresAt: number;
}

/** Proof of one committed write (G7). */
export interface ReceiptRecord {
  receiptId: string;
  learnerId: number;
  sessionId: string;
  operation: string;
  stateVersion: number;
  recordedAt: string;
}

/**
 * The reads a write's work starts with, announced to `CoachStore.write` so that a store talking to
 * a database server can send them together with its BEGIN, in one round trip. The work still makes
 * the calls; the store answers them from what it read in the transaction's own snapshot, as if
 * they were made then. Nothing here writes: a spend announced but never made spends nothing. A
 * store may ignore it.
 */
export interface WriteOpening {
  /** `loadLearner(learnerId)`, the work's first call. */
  learnerId: number;
  /** `findIdempotency(key, now)`. */
  idempotency?: { key: IdempotencyKey; now: number };
  /** The token id of the capability the work spends (`spendCapability(jti, …)`). */
  capabilityJti?: string;
}

/** Reads that see committed data only. */
export interface StoreReader {
  findSession(sessionId: string): Promise<SessionRecord | undefined>;
  /** The learner's state and progress; throws if the learner does not exist. */
  loadLearner(learnerId: number): Promise<LearnerSnapshot>;
}

/** Operations inside one write transaction. Anything thrown rolls all of them back. */
export interface WriteTx extends StoreReader {
  /** The live (unexpired at `now`) record for a key. */
  findIdempotency(key: IdempotencyKey, now: number): Promise<IdempotencyRecord | undefined>;
  saveIdempotency(record: IdempotencyRecord): Promise<void>;
  /**
   * Store the new state as `fromVersion + 1` and return that version; fails if the row moved: at
   * once with StateVersionMismatch (SQLite), or, where the write is held to go out with the
   * transaction's other writes (PostgreSQL), with a STATE_CONFLICT CoachError from `write` before
   * anything is committed.
   */
  saveState(
    learnerId: number,
    state: LearnerState,
    fromVersion: number,
    now: string,
  ): Promise<number>;
  saveProgress(learnerId: number, progress: GoalProgress, now: string): Promise<void>;
  insertReceipt(receipt: ReceiptRecord): Promise<void>;
  /** The learner with this first-party name, created (with initial state) if new. */
  ensureLearner(externalName: string, initialState: LearnerState, now: string): Promise<number>;
  insertSession(session: SessionRecord): Promise<void>;
  /**
   * The policy revision floor (L11) under `key` (`floorKey` of the contract major launched), as
   * stored, decided inside this transaction so that processes sharing the database agree: when
   * `revision` is below the stored floor, returns that floor and changes nothing; otherwise raises
   * the floor to `revision` (never lowers it) and returns `revision`.
   */
  claimPolicyRevision(revision: number, key: string): Promise<number>;
  /**
   * Record that single-use capability `jti` is spent by the request whose input hashes to `use`
   * (epoch-ms `expiresAt` for purging): `fresh` on first use, `repeat` for the same request,
   * `replayed` for another one (C11).
   */
  spendCapability(jti: string, use: string, expiresAt: number): Promise<ReplayVerdict>;
}

/**
 * The persistence boundary of the runtime. The SQLite implementation serializes writers and
 * opens every write with BEGIN IMMEDIATE; a PostgreSQL implementation runs `write` under
 * SERIALIZABLE with a bounded retry on 40001/40P01. Domain code sees only this interface.
 */
export interface CoachStore extends StoreReader {
  readonly dialect: "sqlite" | "postgres";
  /**
   * Run `work` in one atomic write transaction; `opening` announces the reads it starts with (see
   * WriteOpening).
   */
  write<T>(work: (tx: WriteTx) => Promise<T>, opening?: WriteOpening): Promise<T>;
  /** Delete idempotency records and spent capabilities expired at `now`; returns how many. */
  purgeExpired(now: number): Promise<number>;
  /**
   * A knex handle on the same database for administrative work while nothing is served
   * (migrations, status): never on the per-call path, and not while the server writes (on SQLite
   * it is a second connection of the same process).
   */
  admin(): Knex;
  /**
   * Run `work` in one atomic transaction of plain SQL (`?` placeholders) on the serving
   * connection: the infrequent administrative writes of a running server (client policy, instance
   * heartbeats). SQLite queues it with the domain writes on the one writer; PostgreSQL runs it
   * in its own transaction.
   */
  adminTransaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Plain SQL statements of an administrative transaction, both dialects (`?` placeholders). */
export interface SqlExecutor {
  all<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  run(sql: string, params?: readonly unknown[]): Promise<void>;
}

/**
 * The `server_state` key of a contract major's policy revision floor (`WriteTx.claimPolicyRevision`):
 * each major has its own line and so its own revisions (the first major keeps the key it always
 * had).
 */
export const floorKey = (contractMajor: number): string =>
  contractMajor === 1 ? "policy_revision_floor" : `policy_revision_floor:v${contractMajor}`;

/** Thrown by `saveState` when the stored version is not the expected one. */
export class StateVersionMismatch extends Error {
  override name = "StateVersionMismatch";
}

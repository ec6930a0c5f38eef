import type {
  GoalProgress,
  IdempotencyKey,
  IdempotencyRecord,
  LearnerSnapshot,
  ReceiptRecord,
} from "../domain/ports/coach-store.js";
import { idempotencyValues } from "./idempotency-row.js";
import { type ProgressTuple, toSnapshot } from "./learner-row.js";
import { floorSql } from "./policy-floor.js";

// The SQL of the PostgreSQL store's hot path: named statements (prepared once per connection by the
// `pg` driver, then only bound and executed) and the one statement that carries a transaction's
// writes (postgres-write-tx.ts sends it, postgres-store.ts owns the pool and the retry).

/** A named statement: `pg` prepares it on first use on each connection. */
export interface NamedStatement {
  name: string;
  text: string;
}

const named = (name: string, text: string): NamedStatement => ({ name, text });

/** `?` placeholders (the dialect-neutral SQL of policy-floor.ts) as `$1`, `$2`, … */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * A learner's state row with its progress folded in as a JSON array of `[goal_id, status,
 * attempts, mastered_at]` tuples: one statement, so state and progress come from one snapshot
 * without a transaction around them. Goals in byte order, as the embedded store returns them.
 */
const learnerSelect = (id: string) =>
  `SELECT s.state_version, s.state_json,
     (SELECT coalesce(json_agg(json_build_array(p.goal_id, p.status, p.attempts, p.mastered_at)
                               ORDER BY p.goal_id COLLATE "C"), '[]'::json)
        FROM progress p WHERE p.learner_id = s.learner_id) AS progress
   FROM learner_state s WHERE s.learner_id = ${id}`;

export const statements = {
  session: named("sp_session", "SELECT * FROM sessions WHERE session_id = $1"),
  learner: named("sp_learner", learnerSelect("$1")),
  idempotency: named(
    "sp_idempotency",
    "SELECT fingerprint, response, created_at, expires_at FROM idempotency_records " +
      "WHERE session_id = $1 AND tool_name = $2 AND client_request_id = $3 AND expires_at > $4",
  ),
  // The spend record of a token: none means fresh (the insert is then held with the other writes;
  // a concurrent spend of the same token makes one of the two a serialization failure, retried).
  spentBy: named("sp_spent_by", "SELECT use_key FROM spent_capabilities WHERE jti = $1"),
  learnerByName: named("sp_learner_by_name", "SELECT id FROM learners WHERE external_name = $1"),
  insertLearner: named(
    "sp_insert_learner",
    "INSERT INTO learners (external_name, created_at) VALUES ($1, $2) RETURNING id",
  ),
  insertState: named(
    "sp_insert_state",
    "INSERT INTO learner_state (learner_id, state_version, state_schema_version, state_json, " +
      "updated_at) VALUES ($1, 1, $2, $3, $4)",
  ),
  insertSession: named(
    "sp_insert_session",
    "INSERT INTO sessions (session_id, learner_id, locale, contract_major, workflow_version, " +
      "curriculum_revision, policy_revision, created_at, expires_at, subject_issuer, subject, " +
      "lane) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
  ),
  floor: named("sp_floor", numbered(floorSql.read)),
  raiseFloor: named("sp_raise_floor", numbered(floorSql.raise)),
};

/**
 * The reads a write announced (`WriteOpening`) as one statement: the learner row, and beside it the
 * live idempotency record under the key (`idem_*`, null when none) and the token's spend record
 * (`spent_by`, null when unspent) — each at most one row (unique keys), so the joins never
 * multiply the learner row. Named by which parts it has.
 */
export function openingRead(idempotency: boolean, spend: boolean): NamedStatement {
  const columns = ["s.state_version", "s.state_json", "s.progress"];
  const joins: string[] = [];
  let n = 1;
  if (idempotency) {
    columns.push(
      "i.fingerprint AS idem_fingerprint",
      "i.response AS idem_response",
      "i.created_at AS idem_created_at",
      "i.expires_at AS idem_expires_at",
    );
    joins.push(
      `LEFT JOIN idempotency_records i ON i.session_id = $${n + 1} AND i.tool_name = $${n + 2} ` +
        `AND i.client_request_id = $${n + 3} AND i.expires_at > $${n + 4}`,
    );
    n += 4;
  }
  if (spend) {
    columns.push("c.use_key AS spent_by");
    joins.push(`LEFT JOIN spent_capabilities c ON c.jti = $${n + 1}`);
  }
  return named(
    `sp_open${idempotency ? "_key" : ""}${spend ? "_spend" : ""}`,
    `SELECT ${columns.join(", ")} FROM (${learnerSelect("$1")}) s ${joins.join(" ")}`,
  );
}

/** Whether two idempotency keys are the same key. */
export const sameKey = (a: IdempotencyKey, b: IdempotencyKey): boolean =>
  a.sessionId === b.sessionId &&
  a.toolName === b.toolName &&
  a.clientRequestId === b.clientRequestId;

const keyText = (k: IdempotencyKey) => JSON.stringify([k.sessionId, k.toolName, k.clientRequestId]);

/** The values of the idempotency lookup: the key, live at `now`. */
export function idempotencyLookup(key: IdempotencyKey, now: number): unknown[] {
  return [key.sessionId, key.toolName, key.clientRequestId, now];
}

/** How a write transaction opens (every write of the store runs SERIALIZABLE). */
export const BEGIN = "BEGIN ISOLATION LEVEL SERIALIZABLE";

/** How it ends; in a transaction a failed statement has aborted, the server rolls back instead. */
export const COMMIT = "COMMIT";

/** A learner row as the learner statements return it (`progress` parsed by the driver). */
export interface LearnerRow {
  state_version: number;
  state_json: string;
  progress: ProgressTuple[];
}

/** The snapshot of a learner row; throws if the learner does not exist. */
export function toLearnerSnapshot(learnerId: number, row: LearnerRow | undefined): LearnerSnapshot {
  if (!row) throw new Error("learner state missing");
  return toSnapshot(learnerId, row.state_version, row.state_json, row.progress);
}

/**
 * One write a transaction holds back until it next reads or commits: its SQL with `$n`
 * placeholders counted from 1, its values, and the row it writes (two writes of one row cannot
 * share a statement).
 */
export interface HeldWrite {
  kind: string;
  row: string;
  sql: string;
  values: unknown[];
  /**
   * The statement fails unless this write matched a row: a state update at the expected version, or
   * an idempotency record written over no live one.
   */
  mustMatch?: boolean;
}

const idempotencyUpsert =
  "INSERT INTO idempotency_records (session_id, tool_name, client_request_id, fingerprint, " +
  "response, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) " +
  "ON CONFLICT (session_id, tool_name, client_request_id) DO UPDATE SET " +
  "fingerprint = excluded.fingerprint, response = excluded.response, " +
  "created_at = excluded.created_at, expires_at = excluded.expires_at";

export const heldWrites = {
  saveState: (learnerId: number, stateJson: string, from: number, now: string): HeldWrite => ({
    kind: "state",
    row: `state:${learnerId}`,
    sql:
      "UPDATE learner_state SET state_version = $1, state_json = $2, updated_at = $3 " +
      "WHERE learner_id = $4 AND state_version = $5 RETURNING 1",
    values: [from + 1, stateJson, now, learnerId, from],
    mustMatch: true,
  }),
  saveProgress: (learnerId: number, p: GoalProgress, now: string): HeldWrite => ({
    kind: "progress",
    row: `progress:${learnerId}:${p.goalId}`,
    sql:
      "INSERT INTO progress (learner_id, goal_id, status, attempts, mastered_at, updated_at) " +
      "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (learner_id, goal_id) DO UPDATE SET " +
      "status = excluded.status, attempts = excluded.attempts, " +
      "mastered_at = excluded.mastered_at, updated_at = excluded.updated_at",
    values: [learnerId, p.goalId, p.status, p.attempts, p.masteredAt, now],
  }),
  insertReceipt: (r: ReceiptRecord): HeldWrite => ({
    kind: "receipt",
    row: `receipt:${r.receiptId}`,
    sql:
      "INSERT INTO receipts (receipt_id, learner_id, session_id, operation, state_version, " +
      "recorded_at) VALUES ($1, $2, $3, $4, $5, $6)",
    values: [r.receiptId, r.learnerId, r.sessionId, r.operation, r.stateVersion, r.recordedAt],
  }),
  // Plain INSERT: the transaction read the token as unspent, so a row there now is a concurrent
  // spend, which fails this statement (a serialization failure) rather than being skipped.
  spend: (jti: string, use: string, expiresAt: number): HeldWrite => ({
    kind: "spend",
    row: `spend:${jti}`,
    sql: "INSERT INTO spent_capabilities (jti, use_key, expires_at) VALUES ($1, $2, $3)",
    values: [jti, use, expiresAt],
  }),
  // An expired record under the same key is overwritten by the new operation.
  saveIdempotency: (r: IdempotencyRecord): HeldWrite => ({
    kind: "idempotency",
    row: `idempotency:${keyText(r)}`,
    sql: idempotencyUpsert,
    values: idempotencyValues(r),
  }),
  // The same, by a write that presumed the key unused (never read): a record still live at `now`
  // is left alone and fails the statement instead.
  saveIdempotencyUnlessLive: (r: IdempotencyRecord, now: number): HeldWrite => ({
    kind: "idempotency",
    row: `idempotency:${keyText(r)}`,
    sql: `${idempotencyUpsert} WHERE idempotency_records.expires_at <= $8 RETURNING 1`,
    values: [...idempotencyValues(r), now],
    mustMatch: true,
  }),
};

/**
 * The statement of each shape seen: its name (short: PostgreSQL cuts names at 63 bytes) and text. A
 * shape (the kinds of the writes, in order, and which must match a row) fixes the text, so it is
 * built once.
 */
const shapes = new Map<string, NamedStatement>();

/**
 * The SQLSTATE of the held writes' statement when a write that must match a row matched none (see
 * below).
 */
export const VERSION_MOVED = "22012";

/**
 * The held writes as one statement: each a data-modifying WITH clause (PostgreSQL runs every one
 * exactly once, in the statement's one snapshot). A write that must match a row and matched none (a
 * state update whose version moved, a presumed-unused idempotency key found live) fails the whole
 * statement: its check divides by the number of rows written, so the server
 * raises division_by_zero (VERSION_MOVED), nothing of the statement stays, the transaction is
 * aborted and a COMMIT sent behind it rolls back. The check runs in the server, so a COMMIT can
 * go out in the same round trip. Named by its shape, so each shape is built once and prepared once
 * per connection.
 */
export function combinedWrites(writes: readonly HeldWrite[]): NamedStatement & {
  values: unknown[];
} {
  const values = writes.length === 1 ? writes[0].values : writes.flatMap((w) => w.values);
  let shape = "";
  for (const w of writes) shape += w.mustMatch ? `${w.kind}!,` : `${w.kind},`;
  let statement = shapes.get(shape);
  if (!statement) {
    const clauses: string[] = [];
    const checks: string[] = [];
    let offset = 0;
    writes.forEach((w, i) => {
      const at = offset;
      clauses.push(`w${i} AS (${w.sql.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + at}`)})`);
      offset += w.values.length;
      if (w.mustMatch) checks.push(`w${i}`);
    });
    const report = checks.length
      ? checks.map((c) => `(SELECT 1 / count(*) FROM ${c})::int AS ${c}`).join(", ")
      : "1 AS none";
    statement = {
      name: `sp_writes_${shapes.size}`,
      text: `WITH ${clauses.join(", ")} SELECT ${report}`,
    };
    shapes.set(shape, statement);
  }
  return { ...statement, values };
}

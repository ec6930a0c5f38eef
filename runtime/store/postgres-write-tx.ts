import type pg from "pg";
import { CoachError } from "../errors.js";
import { idempotencyValues, type IdempotencyRow, toIdempotencyRecord } from "./idempotency-row.js";
import {
  BEGIN,
  beginWithLearner,
  combinedWrites,
  type HeldWrite,
  heldWrites,
  type LearnerRow,
  type NamedStatement,
  statements,
  toLearnerSnapshot,
} from "./postgres-statements.js";
import { sessionValues, toSession, type SessionRow } from "./session-row.js";
import type { LearnerSnapshot, WriteTx } from "../domain/ports/coach-store.js";

/**
 * One SERIALIZABLE write transaction on one pooled connection, in as few round trips as the work
 * allows (each one a socket write and a wake-up of the database, which is what a write on
 * PostgreSQL mostly costs):
 *  - BEGIN goes out with the first statement when that is the learner read (one query of two
 *    statements), as every write of the write pipeline starts;
 *  - writes whose answer nobody waits for (state, progress, receipt, idempotency record) are held
 *    and sent as one statement just before the next read or the COMMIT. A held state update that
 *    matched no row (the version moved) fails the transaction with STATE_CONFLICT there, before
 *    COMMIT, so nothing of it is committed — as when the update fails on the spot.
 * Operations run in call order.
 */
export class PostgresWriteTx {
  private begun = false;
  private held: HeldWrite[] = [];
  private heldRows = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  readonly api: WriteTx;

  constructor(
    private readonly client: pg.PoolClient,
    stateSchemaVersion: number,
  ) {
    const run = <T>(op: () => Promise<T>): Promise<T> => {
      const next = this.queue.then(op);
      this.queue = next.catch(() => undefined);
      return next;
    };
    const read = async <R extends pg.QueryResultRow>(
      statement: NamedStatement,
      values: unknown[],
    ): Promise<pg.QueryResult<R>> => {
      await this.send();
      return this.client.query<R>({ ...statement, values });
    };
    const hold = (write: HeldWrite) =>
      run(async () => {
        // Two writes of one row cannot share a statement: send the earlier one first.
        if (this.heldRows.has(write.row)) await this.send();
        this.held.push(write);
        this.heldRows.add(write.row);
      });
    this.api = {
      findSession: (id) =>
        run(async () => toSession((await read<SessionRow>(statements.session, [id])).rows[0])),
      loadLearner: (learnerId) => run(() => this.loadLearner(learnerId)),
      findIdempotency: (key, now) =>
        run(async () =>
          toIdempotencyRecord(
            key,
            (
              await read<IdempotencyRow>(statements.idempotency, [
                key.sessionId,
                key.toolName,
                key.clientRequestId,
                now,
              ])
            ).rows[0],
          ),
        ),
      saveIdempotency: (r) =>
        hold(
          heldWrites.saveIdempotency(
            idempotencyValues(r),
            JSON.stringify([r.sessionId, r.toolName, r.clientRequestId]),
          ),
        ),
      saveState: async (learnerId, state, fromVersion, now) => {
        await hold(heldWrites.saveState(learnerId, JSON.stringify(state), fromVersion, now));
        return fromVersion + 1;
      },
      saveProgress: (learnerId, p, now) => hold(heldWrites.saveProgress(learnerId, p, now)),
      insertReceipt: (r) =>
        hold(
          heldWrites.insertReceipt(
            [r.receiptId, r.learnerId, r.sessionId, r.operation, r.stateVersion, r.recordedAt],
            r.receiptId,
          ),
        ),
      ensureLearner: (name, initialState, now) =>
        run(async () => {
          const existing = await read<{ id: number }>(statements.learnerByName, [name]);
          if (existing.rows[0]) return existing.rows[0].id;
          const [{ id }] = (await read<{ id: number }>(statements.insertLearner, [name, now])).rows;
          await read(statements.insertState, [
            id,
            stateSchemaVersion,
            JSON.stringify(initialState),
            now,
          ]);
          return id;
        }),
      insertSession: (r) =>
        run(async () => {
          await read(statements.insertSession, sessionValues(r));
        }),
      claimPolicyRevision: (revision, key) =>
        run(async () => {
          const { rows } = await read<{ value: string }>(statements.floor, [key]);
          const stored = Number(rows[0]?.value ?? 0);
          if (stored > revision) return stored;
          // Under SERIALIZABLE: a concurrent launch that raises it too conflicts and is retried.
          if (stored < revision) await read(statements.raiseFloor, [key, revision]);
          return revision;
        }),
      spendCapability: (jti, use, expiresAt) =>
        run(async () => {
          if ((await read(statements.spend, [jti, use, expiresAt])).rowCount === 1) return "fresh";
          const { rows } = await read<{ use_key: string }>(statements.spentBy, [jti]);
          return rows[0].use_key === use ? "repeat" : "replayed";
        }),
    };
  }

  /** The learner read; the transaction's first statement takes BEGIN along. */
  private async loadLearner(learnerId: number): Promise<LearnerSnapshot> {
    if (this.begun || this.held.length > 0) {
      await this.send();
      const { rows } = await this.client.query<LearnerRow>({
        ...statements.learner,
        values: [learnerId],
      });
      return toLearnerSnapshot(learnerId, rows[0]);
    }
    this.begun = true;
    const results = (await this.client.query(
      beginWithLearner(learnerId),
    )) as unknown as pg.QueryResult<LearnerRow>[];
    return toLearnerSnapshot(learnerId, results[1].rows[0]);
  }

  /** Open the transaction if nothing has yet, and send the held writes. */
  private async send(): Promise<void> {
    if (!this.begun) {
      this.begun = true;
      await this.client.query(BEGIN);
    }
    if (this.held.length === 0) return;
    const writes = this.held;
    this.held = [];
    this.heldRows = new Set();
    const { statement, values, versionChecks } = combinedWrites(writes);
    const { rows } = await this.client.query<Record<string, number>>({ ...statement, values });
    if (versionChecks.some((c) => rows[0][c] !== 1)) throw new CoachError("STATE_CONFLICT");
  }

  /** Send what is held and commit (nothing at all when the work touched no table). */
  async commit(): Promise<void> {
    await this.queue;
    if (!this.begun && this.held.length === 0) return;
    await this.send();
    await this.client.query("COMMIT");
  }

  /** Roll back after a failure (a connection that fails even that is not reused). */
  async rollback(): Promise<boolean> {
    this.held = [];
    if (!this.begun) return true;
    try {
      await this.client.query("ROLLBACK");
      return true;
    } catch {
      return false;
    }
  }
}

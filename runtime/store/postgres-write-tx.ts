import pg from "pg";
import { CoachError } from "../errors.js";
import { type IdempotencyRow, toIdempotencyRecord } from "./idempotency-row.js";
import { learnerWrites, type LearnerWrites, rowAfter } from "./learner-row-cache.js";
import {
  BEGIN,
  COMMIT,
  combinedWrites,
  type HeldWrite,
  heldWrites,
  idempotencyLookup,
  type LearnerRow,
  type NamedStatement,
  openingRead,
  sameKey,
  statements,
  toLearnerSnapshot,
  VERSION_MOVED,
} from "./postgres-statements.js";
import { sessionValues, toSession, type SessionRow } from "./session-row.js";
import type { IdempotencyKey, WriteOpening, WriteTx } from "../domain/ports/coach-store.js";

/** The row of the opening read: the learner, and the announced records beside it. */
interface OpeningRow extends LearnerRow {
  idem_fingerprint?: string | null;
  idem_response: string;
  idem_created_at: string;
  idem_expires_at: number | string;
  spent_by?: string | null;
}

/** A named statement with its values, as the connection sends it. */
type Outgoing = NamedStatement & { values: unknown[] };

/**
 * What the opening read, each answer given to the work's matching call once, and only while the
 * transaction has written nothing the answer could have seen (a later read must see its writes).
 */
interface Opened {
  learner?: { learnerId: number; row: LearnerRow | undefined };
  idempotency?: { key: IdempotencyKey; now: number; row: IdempotencyRow | undefined };
  spentBy?: { jti: string; use: string | undefined };
}

/** Which held writes make an opened answer stale. */
const staleAfter: Record<keyof Opened, readonly string[]> = {
  learner: ["state", "progress"],
  idempotency: ["idempotency"],
  spentBy: ["spend"],
};

/**
 * One SERIALIZABLE write transaction on one pooled connection, in as few round trips as the work
 * allows (each one a socket write and a wake-up of the database, which is what a write on
 * PostgreSQL mostly costs). The connection pipelines (the `pg` driver's pipeline mode: statements
 * go out without waiting for the answers before them, each with its own sync point), so whatever
 * is due goes out together and its answers come back together:
 *  - BEGIN goes out with the first reads: those the write announced (`WriteOpening`: the learner,
 *    the idempotency record, the spend record of the capability, read by one statement), which
 *    the work's calls then get without asking the server again;
 *  - writes whose answer nobody waits for (state, progress, receipt, idempotency record, the spend
 *    of a fresh token) are held and sent as one statement with the next read or with the COMMIT,
 *    so a write of the write pipeline takes two round trips. A held state update that matched no
 *    row fails that statement in the server (STATE_CONFLICT), so the COMMIT behind it rolls back;
 *  - writes never go out behind a BEGIN the server has not confirmed: were it refused, the
 *    pipelined writes would run on their own, outside any transaction.
 * Operations run in call order.
 */
export class PostgresWriteTx {
  /** BEGIN confirmed by the server. */
  private begun = false;
  /** Something was sent on the connection. */
  private touched = false;
  /** The COMMIT was answered: the transaction is over (committed or rolled back). */
  private ended = false;
  private held: HeldWrite[] = [];
  private heldRows = new Set<string>();
  /** Tokens spent in this transaction (jti → use). */
  private spentHere = new Map<string, string>();
  private opened: Opened = {};
  /** The learner row the work loaded, and what it wrote (learnerAfter). */
  private readonly learner: LearnerWrites = { progress: [] };
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
    ): Promise<pg.QueryResult<R>> =>
      (await this.send([{ ...statement, values }])).results[0] as pg.QueryResult<R>;
    /** A statement that writes, answered at once (nothing opened stays valid after it). */
    const write = async <R extends pg.QueryResultRow>(
      statement: NamedStatement,
      values: unknown[],
    ): Promise<pg.QueryResult<R>> => {
      this.opened = {};
      return (await this.send([{ ...statement, values }], { writes: true }))
        .results[0] as pg.QueryResult<R>;
    };
    const hold = (w: HeldWrite) => run(() => this.hold(w));
    this.api = {
      findSession: (id) =>
        run(async () => toSession((await read<SessionRow>(statements.session, [id])).rows[0])),
      loadLearner: (learnerId) =>
        run(async () => {
          const opened = this.take("learner", (o) => o.learnerId === learnerId);
          const row = opened
            ? opened.row
            : (await read<LearnerRow>(statements.learner, [learnerId])).rows[0];
          if (row) this.learner.served = { learnerId, row };
          return toLearnerSnapshot(learnerId, row);
        }),
      findIdempotency: (key, now) =>
        run(async () => {
          const opened = this.take("idempotency", (o) => sameKey(o.key, key) && o.now === now);
          const row = opened
            ? opened.row
            : (await read<IdempotencyRow>(statements.idempotency, idempotencyLookup(key, now)))
                .rows[0];
          return toIdempotencyRecord(key, row);
        }),
      saveIdempotency: (r) => hold(heldWrites.saveIdempotency(r)),
      ...learnerWrites(hold, this.learner),
      ensureLearner: (name, initialState, now) =>
        run(async () => {
          const existing = await read<{ id: number }>(statements.learnerByName, [name]);
          if (existing.rows[0]) return existing.rows[0].id;
          const [{ id }] = (await write<{ id: number }>(statements.insertLearner, [name, now]))
            .rows;
          await write(statements.insertState, [
            id,
            stateSchemaVersion,
            JSON.stringify(initialState),
            now,
          ]);
          return id;
        }),
      insertSession: (r) =>
        run(async () => {
          await write(statements.insertSession, sessionValues(r));
        }),
      claimPolicyRevision: (revision, key) =>
        run(async () => {
          const { rows } = await read<{ value: string }>(statements.floor, [key]);
          const stored = Number(rows[0]?.value ?? 0);
          if (stored > revision) return stored;
          // Under SERIALIZABLE: a concurrent launch that raises it too conflicts and is retried.
          if (stored < revision) await write(statements.raiseFloor, [key, revision]);
          return revision;
        }),
      spendCapability: (jti, use, expiresAt) =>
        run(async () => {
          let by = this.spentHere.get(jti);
          if (by === undefined) {
            const opened = this.take("spentBy", (o) => o.jti === jti);
            by = opened
              ? opened.use
              : (await read<{ use_key: string }>(statements.spentBy, [jti])).rows[0]?.use_key;
          }
          if (by !== undefined) return by === use ? "repeat" : "replayed";
          // Fresh: the insert goes out with the other writes. A concurrent spend of the same
          // token (read as unspent here too) makes one of the two fail to serialize: retried.
          this.spentHere.set(jti, use);
          await this.hold(heldWrites.spend(jti, use, expiresAt));
          return "fresh";
        }),
    };
  }

  /**
   * Send the announced reads with BEGIN (one round trip, one statement); the work's calls get
   * their answers. Returns the learner row read.
   */
  async open(opening: WriteOpening): Promise<LearnerRow | undefined> {
    const { learnerId, idempotency, capabilityJti } = opening;
    const values: unknown[] = [learnerId];
    if (idempotency) values.push(...idempotencyLookup(idempotency.key, idempotency.now));
    if (capabilityJti) values.push(capabilityJti);
    const statement = openingRead(idempotency !== undefined, capabilityJti !== undefined);
    const row = (await this.send([{ ...statement, values }])).results[0].rows[0] as
      | OpeningRow
      | undefined;
    this.opened.learner = { learnerId, row };
    // Without the learner row nothing else was read: the work fails on the learner first.
    if (idempotency && row)
      this.opened.idempotency = {
        ...idempotency,
        row: row?.idem_fingerprint
          ? {
              fingerprint: row.idem_fingerprint,
              response: row.idem_response,
              created_at: row.idem_created_at,
              expires_at: row.idem_expires_at,
            }
          : undefined,
      };
    if (capabilityJti && row)
      this.opened.spentBy = { jti: capabilityJti, use: row.spent_by ?? undefined };
    return (
      row && {
        state_version: row.state_version,
        state_json: row.state_json,
        progress: row.progress,
      }
    );
  }

  /** The learner row as this transaction committed it (see `rowAfter`). */
  learnerAfter(): { learnerId: number; row: LearnerRow } | undefined {
    return rowAfter(this.learner);
  }

  /** An opened answer for a call that matches it, given once. */
  private take<K extends keyof Opened>(
    kind: K,
    matches: (answer: NonNullable<Opened[K]>) => boolean,
  ): NonNullable<Opened[K]> | undefined {
    const answer = this.opened[kind];
    if (!answer || !matches(answer as NonNullable<Opened[K]>)) return undefined;
    delete this.opened[kind];
    return answer as NonNullable<Opened[K]>;
  }

  /** Hold a write until the next round trip (the earlier write of the same row goes out first). */
  private async hold(write: HeldWrite): Promise<void> {
    // Two writes of one row cannot share a statement.
    if (this.heldRows.has(write.row)) await this.send([]);
    for (const kind of Object.keys(staleAfter) as (keyof Opened)[])
      if (staleAfter[kind].includes(write.kind)) delete this.opened[kind];
    this.held.push(write);
    this.heldRows.add(write.row);
  }

  /**
   * One round trip: whatever is due goes out pipelined — BEGIN if the transaction has not begun,
   * the held writes as one statement, `statements`, and COMMIT when `commit` — and resolves with
   * the answers to `statements` once every answer is in. Writes (held, `writes`, or committed)
   * wait for a confirmed BEGIN: a BEGIN not yet confirmed then takes a round trip of its own.
   */
  private async send(
    tail: readonly Outgoing[],
    { writes = false, commit = false } = {},
  ): Promise<{ results: pg.QueryResult[] }> {
    if (!this.begun && (writes || commit || this.held.length > 0)) await this.begin();
    const sent: Promise<pg.QueryResult>[] = [];
    const opens = !this.begun;
    let writesAt = -1;
    const tailAt = (opens ? 1 : 0) + (this.held.length > 0 ? 1 : 0);
    // One socket write for the exchange (the driver writes each statement as it is queried).
    const socket = (this.client as unknown as pg.Client).connection.stream;
    socket.cork();
    try {
      if (opens) sent.push(this.client.query(BEGIN));
      if (this.held.length > 0) {
        writesAt = sent.length;
        sent.push(this.client.query(combinedWrites(this.held)));
        this.held = [];
        this.heldRows = new Set();
      }
      for (const statement of tail) sent.push(this.client.query(statement));
      if (commit) sent.push(this.client.query(COMMIT));
    } finally {
      socket.uncork();
    }
    if (sent.length === 0) return { results: [] };
    this.touched = true;
    const settled = await Promise.allSettled(sent);
    if (opens && settled[0].status === "fulfilled") this.begun = true;
    const last = settled[settled.length - 1];
    if (commit) this.ended = this.answered(last);
    // The first failure is the cause; the statements behind it in the transaction failed with it.
    const failed = settled.findIndex((s) => s.status === "rejected");
    if (failed >= 0) {
      const { reason } = settled[failed] as PromiseRejectedResult;
      if (failed === writesAt && (reason as { code?: unknown })?.code === VERSION_MOVED)
        throw new CoachError("STATE_CONFLICT");
      throw reason;
    }
    const value = (s: PromiseSettledResult<pg.QueryResult>) =>
      (s as PromiseFulfilledResult<pg.QueryResult>).value;
    // Every statement before it succeeded, so this cannot be the server's rollback; but only a
    // COMMIT the server confirmed counts as saved.
    if (commit && value(last).command !== "COMMIT")
      throw new Error("the transaction was not committed");
    return { results: settled.slice(tailAt, tailAt + tail.length).map(value) };
  }

  /** BEGIN on its own, confirmed before anything that writes goes out. */
  private async begin(): Promise<void> {
    this.touched = true;
    await this.client.query(BEGIN);
    this.begun = true;
  }

  /** Whether the server answered the COMMIT, so the transaction is over either way. */
  private answered(outcome: PromiseSettledResult<unknown>): boolean {
    const byServer = outcome.status === "fulfilled" || outcome.reason instanceof pg.DatabaseError;
    return byServer && this.client.getTransactionStatus() === "I";
  }

  /** Send what is held and commit, in one round trip (nothing when the work touched no table). */
  async commit(): Promise<void> {
    await this.queue;
    if (!this.touched && this.held.length === 0) return;
    await this.send([], { commit: true });
  }

  /** Roll back after a failure (a connection that fails even that is not reused). */
  async rollback(): Promise<boolean> {
    await this.queue;
    this.held = [];
    if (!this.touched || this.ended) return true;
    try {
      await this.client.query("ROLLBACK");
      return true;
    } catch {
      return false;
    }
  }
}

import type { Knex } from "knex";
import { type CoachStore, floorKey } from "../domain/ports/coach-store.js";

/** About a minute of short pauses before a busy SQLite database counts as a failure. */
const MAX_BUSY_RETRIES = 400;
/**
 * How often a running server re-reads the floor another process may have raised (the period of
 * the client-policy heartbeat): the bound on how long its calls may still be served under a line
 * another instance's floor refuses. Launches never wait for it: they check the stored floor inside
 * their own transaction.
 */
export const FLOOR_REFRESH_MS = 5_000;

/**
 * The SQL of a floor, the same text for both dialects (`?` placeholders, the key first): read it,
 * and raise it (never lower it) in one statement.
 */
export const floorSql = {
  read: "SELECT value FROM server_state WHERE key = ?",
  raise:
    "INSERT INTO server_state (key, value) VALUES (?, ?) " +
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value " +
    "WHERE server_state.value < excluded.value",
} as const;

/**
 * The highest contract-line `policyRevision` this database has been served under (L11): a revision
 * only ever rises, so a line below it is refused at start and at run time, and sessions a bump
 * retired never come back. Kept in `server_state`, shared by every process on the database.
 *
 * This object is the server's in-memory copy, which the per-call path reads without touching the
 * database. It rises at once when this server serves a higher revision (raised in the database in
 * the background; `flush` waits for it: through the running store's administrative transactions,
 * or, before the store runs, the start-up admin connection, which never waits for a SQLite lock),
 * and it follows raises by other processes: re-read when the line file changes and every
 * `FLOOR_REFRESH_MS`. A launch does not rely on the copy: it checks and raises the stored floor in
 * the transaction that inserts the session (`WriteTx.claimPolicyRevision`).
 */
export class PolicyRevisionFloor {
  private pending: Promise<void> = Promise.resolve();
  private reading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Once the store runs: raises go through its administrative transactions (its one writer). */
  private store: Pick<CoachStore, "adminTransaction"> | undefined;

  private constructor(
    private readonly knex: Knex,
    private value: number,
    private readonly onError: (error: unknown) => void,
    /** Its `server_state` key (`floorKey` of the contract major whose line it guards). */
    readonly key: string,
  ) {}

  /** Read the floor of a contract major (0 when nothing was served yet; the first by default). */
  static async open(
    knex: Knex,
    onError: (error: unknown) => void = () => undefined,
    key: string = floorKey(1),
  ): Promise<PolicyRevisionFloor> {
    return new PolicyRevisionFloor(knex, await readFloor(knex, key), onError, key);
  }

  /** The highest revision served so far, as far as this process knows. */
  get current(): number {
    return this.value;
  }

  /** Record that `revision` is served now; lower revisions change nothing. */
  raise(revision: number): void {
    if (revision <= this.value) return;
    this.value = revision;
    this.pending = this.pending.then(() => this.persist(revision)).catch(this.onError);
  }

  /** The database holds `stored` (read elsewhere, e.g. in a launch): the copy rises to it. */
  observe(stored: number): void {
    if (stored > this.value) this.value = stored;
  }

  /**
   * Re-read the floor from the database in the background (another process may have raised it);
   * a read already under way is not repeated. A failed read changes nothing and is retried by the
   * next one.
   */
  refresh(): Promise<void> {
    this.reading ??= readFloor(this.knex, this.key)
      .then((stored) => this.observe(stored))
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /** Refresh every `everyMs` until `close` (the timer keeps no process alive). */
  refreshEvery(everyMs = FLOOR_REFRESH_MS): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.refresh(), everyMs);
    this.timer.unref();
  }

  /**
   * Write raises through the running store from now on: on SQLite they queue with the domain
   * writes on the one writer instead of competing with it from a second connection.
   */
  useStore(store: Pick<CoachStore, "adminTransaction">): void {
    this.store = store;
  }

  /** Wait until every raise is in the database. */
  async flush(): Promise<void> {
    await this.pending;
  }

  /** Stop refreshing, wait for a read under way and for every raise. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.reading;
    await this.flush();
  }

  /**
   * Only ever upwards, also when several processes share the database. On SQLite the admin
   * connection does not wait for locks (a wait would block this process's own writer, which runs on
   * the same thread): a busy database is retried after a short pause instead.
   */
  private async persist(revision: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (this.store)
          return await this.store.adminTransaction((sql) =>
            sql.run(floorSql.raise, [this.key, revision]),
          );
        await this.knex.raw(floorSql.raise, [this.key, revision]);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || attempt >= MAX_BUSY_RETRIES)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 * attempt)));
      }
    }
  }
}

async function readFloor(knex: Knex, key: string): Promise<number> {
  const row = await knex("server_state").where({ key }).first<{ value: unknown } | undefined>();
  return Number(row?.value ?? 0);
}

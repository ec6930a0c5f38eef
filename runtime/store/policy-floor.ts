import type { Knex } from "knex";
import type { CoachStore } from "./store.js";

const FLOOR_KEY = "policy_revision_floor";
/** About a minute of short pauses before a busy SQLite database counts as a failure. */
const MAX_BUSY_RETRIES = 400;

/**
 * The highest contract-line `policyRevision` this database has been served under (L11): a revision
 * only ever rises, so a line below it is refused at start and at run time, and sessions a bump
 * retired never come back. Kept in `server_state`; raised in memory at once and in the database in
 * the background (`flush` waits for it): through the running store's administrative transactions,
 * or, before the store runs, the start-up admin connection (which never waits for a SQLite lock).
 */
export class PolicyRevisionFloor {
  private pending: Promise<void> = Promise.resolve();
  /** Once the store runs: raises go through its administrative transactions (its one writer). */
  private store: Pick<CoachStore, "adminTransaction"> | undefined;

  private constructor(
    private readonly knex: Knex,
    private value: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Read the floor (0 when nothing was served yet). */
  static async open(
    knex: Knex,
    onError: (error: unknown) => void = () => undefined,
  ): Promise<PolicyRevisionFloor> {
    const row = await knex("server_state").where({ key: FLOOR_KEY }).first<{ value: unknown }>();
    return new PolicyRevisionFloor(knex, Number(row?.value ?? 0), onError);
  }

  /** The highest revision served so far. */
  get current(): number {
    return this.value;
  }

  /** Record that `revision` is served now; lower revisions change nothing. */
  raise(revision: number): void {
    if (revision <= this.value) return;
    this.value = revision;
    this.pending = this.pending.then(() => this.persist(revision)).catch(this.onError);
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

  /**
   * Only ever upwards, also when several processes share the database. On SQLite the admin
   * connection does not wait for locks (a wait would block this process's own writer, which runs on
   * the same thread): a busy database is retried after a short pause instead.
   */
  private async persist(revision: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(revision);
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || attempt >= MAX_BUSY_RETRIES)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 * attempt)));
      }
    }
  }

  private async write(revision: number): Promise<void> {
    if (this.store)
      return this.store.adminTransaction(async (sql) => {
        const [row] = await sql.all<{ value: unknown }>(
          "SELECT value FROM server_state WHERE key = ?",
          [FLOOR_KEY],
        );
        if (row === undefined)
          await sql.run("INSERT INTO server_state (key, value) VALUES (?, ?)", [
            FLOOR_KEY,
            revision,
          ]);
        else if (Number(row.value) < revision)
          await sql.run("UPDATE server_state SET value = ? WHERE key = ?", [revision, FLOOR_KEY]);
      });
    const raised = await this.knex("server_state")
      .where({ key: FLOOR_KEY })
      .andWhere("value", "<", revision)
      .update({ value: revision });
    if (raised === 0)
      await this.knex("server_state")
        .insert({ key: FLOOR_KEY, value: revision })
        .onConflict("key")
        .ignore();
  }
}

import type { Knex } from "knex";

/**
 * Key of the PostgreSQL advisory lock that serializes migrations between server processes (an
 * arbitrary constant of this application).
 */
const MIGRATION_LOCK_KEY = 0x5c111a7;

/** knex's lock table: one row, which a migration sets to 1 while it runs. */
const KNEX_LOCK_TABLE = "knex_migrations_lock";

/**
 * Run `work` (migrations on `knex`) while no other process migrates the same PostgreSQL database.
 * knex creates its bookkeeping tables without any lock, so nodes starting at once race to create
 * them and each may insert the lock table's row. The lock is a session advisory lock on a
 * connection of its own, outside knex's pool: `work` keeps every pooled connection, and the lock
 * goes with the connection if the process dies. On SQLite `work` runs as it is: its writers are
 * serialized by the file, and `repairLockTable` heals what a race there leaves.
 */
export async function serializeMigrations<T>(knex: Knex, work: () => Promise<T>): Promise<T> {
  const { client, connection } = knex.client.config as { client?: unknown; connection?: unknown };
  if (client !== "pg") return work();
  const { default: pg } = await import("pg");
  const holder = new pg.Client(
    typeof connection === "string" ? { connectionString: connection } : (connection as object),
  );
  holder.on("error", () => undefined);
  await holder.connect();
  try {
    await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    return await work();
  } finally {
    // Ending the session releases the lock as well; the explicit unlock just says so sooner.
    await holder.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await holder.end().catch(() => {});
  }
}

/**
 * Remove the extra rows of knex's lock table, keeping its first. Two
 * processes that both found the new table empty each inserted a row, and knex refuses a lock that
 * does not update exactly one row, so such a database could never be migrated again ("Migration
 * table is already locked"). A lock held during a migration is never removed: knex takes it inside
 * the migration's transaction, so this statement waits for that transaction to end.
 */
export async function repairLockTable(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable(KNEX_LOCK_TABLE))) return;
  // Counted first: on SQLite even a DELETE that matches nothing would wait for the write lock.
  const rows = await knex(KNEX_LOCK_TABLE).count({ n: "*" });
  if (Number(rows[0]?.n ?? 0) <= 1) return;
  await knex(KNEX_LOCK_TABLE).whereNot("index", knex(KNEX_LOCK_TABLE).min("index")).delete();
}

import { mkdir } from "node:fs/promises";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { repairLockTable, serializeMigrations } from "./migration-lock.js";
import { migrationSource, migrations } from "./migrations/index.js";
import { databaseFileName } from "./sqlite-store.js";

/**
 * The oldest state schema version `start` (and `db migrate`) brings forward on its own: every
 * version from here up to the server's own is a known, tested migration path (L12.5). Versions are
 * never migrated backwards automatically; `db rollback` does that on request.
 */
export const oldestMigratableVersion = 3;

/** Where the database is: the embedded SQLite file, or a PostgreSQL URL. */
export interface DatabaseLocation {
  dataDir: string;
  databaseUrl?: string;
}

/** A readable name of a database location (a PostgreSQL URL without its password). */
export function describeDatabase(location: DatabaseLocation): string {
  if (!location.databaseUrl) return path.join(location.dataDir, databaseFileName);
  try {
    const url = new URL(location.databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

/**
 * knex's own warnings (a migration that failed, a lock another instance holds) are dropped: every
 * failure reaches the caller as an error, which says it once.
 */
const quietLog = { warn: () => undefined };

/**
 * A knex handle on the database for infrequent admin work (migrations, the policy revision floor),
 * beside the store's own connections. `create: false` never creates a missing SQLite file.
 */
export async function openAdminKnex(
  location: DatabaseLocation,
  options: { create?: boolean; lockWaitMs?: () => number } = {},
): Promise<Knex> {
  if (location.databaseUrl)
    return knexFactory({
      client: "pg",
      connection: location.databaseUrl,
      pool: { min: 0, max: 2 },
      log: quietLog,
    });
  const filename = path.join(location.dataDir, databaseFileName);
  if (options.create !== false) await mkdir(location.dataDir, { recursive: true, mode: 0o700 });
  const lockWaitMs = options.lockWaitMs;
  return knexFactory({
    client: "better-sqlite3",
    connection: {
      filename,
      ...(options.create === false ? { options: { fileMustExist: true } } : {}),
    },
    useNullAsDefault: true,
    log: quietLog,
    pool: {
      min: 1,
      max: 1,
      // How long a statement waits for another connection's lock, decided per connection.
      ...(lockWaitMs && {
        afterCreate: (db: { pragma(sql: string): unknown }, done: (error?: Error) => void) => {
          db.pragma(`busy_timeout = ${lockWaitMs()}`);
          done();
        },
      }),
    },
  });
}

/** The state schema version a database is at once `names` (in order) have run; 0 when none has. */
export function versionAfter(names: readonly string[]): number {
  let version = 0;
  for (const name of names) {
    const declared = migrations.find((m) => m.name === name)?.stateSchemaVersion;
    if (declared !== undefined) version = declared;
  }
  return version;
}

/** The state schema version this build writes: the one its last migration leaves. */
export const latestStateSchemaVersion = versionAfter(migrations.map((m) => m.name));

/** Everything `db status` reports, and what `start` decides on. */
export interface StateSchemaStatus {
  /** The state schema version this server reads and writes. */
  server: number;
  /**
   * The database's version, from the migrations applied to it (0: empty); undefined when it holds
   * migrations this server does not know (written by a newer server) or its history is inconsistent
   * (`missing`, `misordered`).
   */
  database?: number;
  /** Migration names applied, in order. */
  applied: string[];
  /** Known migrations not applied yet that come after every applied one, in order. */
  pending: string[];
  /** Applied migrations this server does not know. */
  unknown: string[];
  /**
   * Known migrations missing from the history although a later one is applied (a row deleted by
   * hand, a partial restore): the database's state schema cannot be told from its history.
   */
  missing: string[];
  /** Applied migrations recorded after one they precede, or recorded twice. */
  misordered: string[];
  /** Learner rows per stored state schema version (`learner_state.state_schema_version`). */
  learnerRows: { version: number; learners: number }[];
}

/** Read the database's state schema version, its migrations and its learner rows' versions. */
export async function readStateSchemaStatus(knex: Knex): Promise<StateSchemaStatus> {
  const known = new Set(migrations.map((m) => m.name));
  const applied = (await knex.schema.hasTable("knex_migrations"))
    ? (await knex("knex_migrations").select("name").orderBy("id")).map((r) => String(r.name))
    : [];
  const unknown = applied.filter((name) => !known.has(name));
  const order = migrations.map((m) => m.name);
  const positions = applied.filter((name) => known.has(name)).map((name) => order.indexOf(name));
  const last = Math.max(-1, ...positions);
  const missing = order.slice(0, last + 1).filter((name) => !applied.includes(name));
  const misordered = positions
    .filter((position, i) => i > 0 && position <= Math.max(...positions.slice(0, i)))
    .map((position) => order[position]);
  const learnerRows = (await knex.schema.hasTable("learner_state"))
    ? (
        await knex("learner_state")
          .select("state_schema_version")
          .count<{ state_schema_version: number; n: number | string }[]>("* as n")
          .groupBy("state_schema_version")
          .orderBy("state_schema_version")
      ).map((r) => ({ version: Number(r.state_schema_version), learners: Number(r.n) }))
    : [];
  return {
    server: latestStateSchemaVersion,
    ...(unknown.length + missing.length + misordered.length === 0
      ? { database: versionAfter(applied) }
      : {}),
    applied,
    pending: order.slice(last + 1),
    unknown,
    missing,
    misordered,
    learnerRows,
  };
}

/**
 * Why this server must not touch the database, or undefined: it holds migrations or learner rows of
 * a state schema version this server does not know (a newer server wrote it), its migration history
 * has a gap or is out of order (its version cannot be told), or it is older than the oldest version
 * this server migrates.
 */
export function refusal(status: StateSchemaStatus): string | undefined {
  const newer = status.learnerRows.filter((r) => r.version > status.server);
  if (status.unknown.length > 0 || newer.length > 0)
    return (
      `the database was written by a newer SkillPilot server (` +
      (status.unknown.length > 0
        ? `migrations ${status.unknown.join(", ")}`
        : `learner rows at state schema version ${newer.map((r) => r.version).join(", ")}`) +
      `); this server knows state schema versions up to ${status.server}. Run the newer server, ` +
      `or roll the database back with its \`skillpilot db rollback --to ${status.server}\``
    );
  if (status.missing.length > 0 || status.misordered.length > 0)
    return (
      `the database's migration history is inconsistent (` +
      [
        ...(status.missing.length > 0
          ? [`${status.missing.join(", ")} missing although later migrations are applied`]
          : []),
        ...(status.misordered.length > 0
          ? [`${status.misordered.join(", ")} recorded out of order or twice`]
          : []),
      ].join("; ") +
      `), so its state schema version cannot be told and nothing is changed. Restore the ` +
      `knex_migrations rows (or the database from a backup), then check with \`skillpilot db status\``
    );
  if (
    status.database !== undefined &&
    status.database > 0 &&
    status.database < oldestMigratableVersion
  )
    return (
      `the database is at state schema version ${status.database}, older than ` +
      `${oldestMigratableVersion}, the oldest this server migrates`
    );
  return undefined;
}

/** Thrown when the database is at a state schema version this server must not touch. */
export class StateSchemaRefused extends Error {
  override name = "StateSchemaRefused";
}

/** Thrown when a migration failed for another reason than a concurrent migration. */
export class MigrationFailed extends Error {
  override name = "MigrationFailed";
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`migration ${migration} failed: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/**
 * How long a start keeps retrying while another instance migrates the same database: the other
 * instance holds knex's lock for each of its migrations in turn, and on a loaded machine a waiting
 * instance can lose the race for the lock many times before the chain is done.
 */
const MIGRATION_RACE_MS = 30_000;

/** Failed attempts tolerated while knex's own tables may still be being created by another. */
const MAX_BOOKKEEPING_RETRIES = 60;

/**
 * Errors a migration step meets when another process migrates the same database at the same time:
 * knex's migration lock is taken (MigrationLocked), a lock or snapshot conflict (SQLite busy,
 * PostgreSQL serialization failure, deadlock, lock not available).
 */
const RACE_CODES = new Set(["SQLITE_BUSY", "SQLITE_LOCKED", "40001", "40P01", "55P03"]);

function concurrentMigration(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return name === "MigrationLocked" || RACE_CODES.has(String(code));
}

/**
 * Migrate forward to `target` (default: this server's version), one known migration at a time;
 * returns the names applied. Refuses (StateSchemaRefused) a database this server does not know or
 * whose migration history is inconsistent. Instances starting at once on one database migrate one
 * after another on PostgreSQL (an advisory lock, see `serializeMigrations`). On SQLite they race to
 * create knex's tables and take its migration lock: such a step is retried after a short pause
 * against the status as it is then (a lock table the race left with two rows is repaired first),
 * so each migration runs once and every instance ends at the same version. Any other failure is
 * thrown at once (MigrationFailed).
 */
export async function migrateForward(
  knex: Knex,
  target = latestStateSchemaVersion,
): Promise<string[]> {
  if (target > latestStateSchemaVersion)
    throw new StateSchemaRefused(
      `state schema version ${target} is unknown to this server (it knows up to ${latestStateSchemaVersion})`,
    );
  return serializeMigrations(knex, () => migrateSteps(knex, target));
}

async function migrateSteps(knex: Knex, target: number): Promise<string[]> {
  const applied: string[] = [];
  const giveUpAt = Date.now() + MIGRATION_RACE_MS;
  for (let failures = 0; ; ) {
    const status = await readStateSchemaStatus(knex);
    const refused = refusal(status);
    if (refused) throw new StateSchemaRefused(refused);
    const next = status.pending[0];
    // Stop before the first migration that would move past the target version.
    const declared = migrations.find((m) => m.name === next)?.stateSchemaVersion;
    if (next === undefined || (declared !== undefined && declared > target)) return applied;
    // Until knex's own tables exist, instances starting together race to create them.
    const bookkeeping = await knex.schema.hasTable("knex_migrations_lock");
    try {
      const [, ran] = (await knex.migrate.up({ migrationSource, name: next })) as [
        number,
        string[],
      ];
      // Nothing ran when another instance applied it between the status and the lock.
      if (ran.length > 0) applied.push(next);
    } catch (error) {
      // The lock taken or a lock conflict: retried while the race lasts. Anything else only while
      // knex's tables may still be being created, a few times.
      const race = concurrentMigration(error);
      // A lock table left with two rows by processes that created it at once is never free.
      if (race) await repairLockTable(knex).catch(() => undefined);
      if (
        (bookkeeping && !race) ||
        Date.now() > giveUpAt ||
        (!race && ++failures > MAX_BOOKKEEPING_RETRIES)
      )
        throw new MigrationFailed(next, error);
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 100));
    }
  }
}

/**
 * Roll back, newest migration first, until the database is at `target` (L12.5; default: the
 * version before its current one); returns the names undone. On PostgreSQL no other process
 * migrates meanwhile (`serializeMigrations`). Refuses a database this server does not know or
 * whose migration history is inconsistent, and a target it cannot reach.
 */
export async function rollbackTo(knex: Knex, target?: number): Promise<string[]> {
  return serializeMigrations(knex, () => rollbackSteps(knex, target));
}

async function rollbackSteps(knex: Knex, target?: number): Promise<string[]> {
  // knex's lock is taken by each step below; a lock table an earlier race broke would refuse it.
  await repairLockTable(knex);
  const status = await readStateSchemaStatus(knex);
  const refused = refusal(status);
  if (refused) throw new StateSchemaRefused(refused);
  const reachable = new Set(
    status.applied.map((_, i) => versionAfter(status.applied.slice(0, i + 1))),
  );
  const to = target ?? [...reachable].filter((v) => v < (status.database ?? 0)).at(-1);
  if (to === undefined)
    throw new StateSchemaRefused(
      `state schema ${status.database} has no earlier version to roll back to`,
    );
  if (!reachable.has(to))
    throw new StateSchemaRefused(
      `state schema version ${to} cannot be reached by rolling back; this database went ` +
        `through ${[...reachable].join(", ") || "no version"}`,
    );
  const undone: string[] = [];
  const applied = [...status.applied];
  // Migrations that declare no version belong to the version before them and stay.
  while (applied.length > 0 && versionAfter(applied) > to) {
    await knex.migrate.down({ migrationSource, name: applied[applied.length - 1] });
    undone.push(applied.pop()!);
  }
  return undone;
}

import type { Logger } from "pino";
import { StartupError } from "./config/startup-error.js";
import { readLine } from "./domain/line-policy.js";
import { assertDatabaseIntact, damagedDatabase, isDamagedDatabase } from "./store/database-file.js";
import { floorKey } from "./domain/ports/coach-store.js";
import { PolicyRevisionFloor } from "./store/policy-floor.js";
import {
  type DatabaseLocation,
  describeDatabase,
  MigrationFailed,
  migrateForward,
  openAdminKnex,
  StateSchemaRefused,
} from "./store/state-schema.js";

/** What the start-up guard of the database established, kept while the server runs. */
export interface StateGuard {
  /** The highest policyRevision this database was served under; LineSource keeps it (L11). */
  floor: PolicyRevisionFloor;
  /**
   * The floor of another contract major served beside the first (its own line, its own
   * revisions), opened once; refuses (StartupError) when its line file is below it.
   */
  floorFor(contractMajor: number, lineFile: string): Promise<PolicyRevisionFloor>;
  /** Migrations this start applied (state schema forward within the documented range, L12.5). */
  migrated: string[];
  /** Log the migrations applied and, from now on, floor write failures. */
  attachLogger(logger: Logger): void;
  /** Stop refreshing the floor, write out pending raises and let the admin connection go. */
  close(): Promise<void>;
}

/** How long `start` waits for PostgreSQL to accept a connection before it gives up. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Connect to the PostgreSQL database once, before any pool opens: a database that is down, a wrong
 * password or a missing database is one `StartupError` line naming the database (password
 * hidden), not a pool's logged stack and a raw `ECONNREFUSED`.
 */
export async function assertDatabaseReachable(databaseUrl: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StartupError(
      "DATABASE_UNREACHABLE",
      `cannot connect to the PostgreSQL database ${describeDatabase({ dataDir: "", databaseUrl })}: ` +
        `${reason || (error as NodeJS.ErrnoException).code}; check that it is running and that ` +
        `DATABASE_URL (or databaseUrl) names it`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The database side of `start`, before the store opens: refuse a database at a state schema version
 * this server does not know (written by a newer server), migrate a known older one forward to this
 * server's version, and refuse a contract line whose policyRevision is below the highest the
 * database was served under (L11).
 */
export async function openStateGuard(
  config: DatabaseLocation & { lineFile: string },
): Promise<StateGuard> {
  let logger: Logger | undefined;
  // At start this connection may wait for locks (another process); once the store runs beside it on
  // the same thread it must never wait (a wait would block the store's own writer): 0.
  let lockWaitMs = 5000;
  if (config.databaseUrl) await assertDatabaseReachable(config.databaseUrl);
  const knex = await openAdminKnex(config, { lockWaitMs: () => lockWaitMs });
  try {
    // A damaged embedded database stops the start before anything reads or writes it.
    if (!config.databaseUrl) await assertDatabaseIntact(knex, describeDatabase(config));
    let migrated: string[];
    try {
      migrated = await migrateForward(knex);
    } catch (error) {
      if (isDamagedDatabase(error))
        throw damagedDatabase(describeDatabase(config), (error as Error).message);
      if (error instanceof StateSchemaRefused)
        throw new StartupError(
          "STATE_SCHEMA_UNKNOWN",
          `${describeDatabase(config)}: ${error.message}`,
        );
      if (error instanceof MigrationFailed)
        throw new StartupError(
          "STATE_MIGRATION_FAILED",
          `${describeDatabase(config)}: ${error.message}`,
        );
      throw error;
    }
    const floor = await PolicyRevisionFloor.open(knex, (error) =>
      logger?.error({ err: (error as Error).name }, "policy revision floor not saved"),
    );
    const refuseLowered = async (lineFile: string, guard: PolicyRevisionFloor) => {
      const line = await readLine(lineFile);
      if (line && line.policyRevision < guard.current)
        throw new StartupError(
          "POLICY_REVISION_LOWERED",
          `${lineFile}: policyRevision ${line.policyRevision} is below ${guard.current}, the ` +
            `highest revision ${describeDatabase(config)} was served under. A revision never ` +
            `goes back: lowering it would bring sessions a bump retired back into use. Set ` +
            `policyRevision to ${guard.current} or higher.`,
        );
    };
    await refuseLowered(config.lineFile, floor);
    const others = new Map<number, Promise<PolicyRevisionFloor>>();
    const onError = (error: unknown) =>
      logger?.error({ err: (error as Error).name }, "policy revision floor not saved");
    // The floor rises when a line is served (a call, a launch: LineSource and the launch
    // transaction), not here: a start that is refused later (e.g. by the client policy) has served
    // nothing.
    if (!config.databaseUrl) {
      lockWaitMs = 0;
      await knex.raw("PRAGMA busy_timeout = 0");
    }
    return {
      floor,
      floorFor(contractMajor, lineFile) {
        let opened = others.get(contractMajor);
        if (!opened) {
          opened = PolicyRevisionFloor.open(knex, onError, floorKey(contractMajor)).then(
            async (other) => {
              await refuseLowered(lineFile, other);
              return other;
            },
          );
          others.set(contractMajor, opened);
        }
        return opened;
      },
      migrated,
      attachLogger(to) {
        logger = to;
        if (migrated.length > 0)
          to.info({ migrations: migrated }, "database migrated to this server's state schema");
      },
      async close() {
        await floor.close();
        for (const other of others.values()) await (await other.catch(() => undefined))?.close();
        await knex.destroy();
      },
    };
  } catch (error) {
    await knex.destroy();
    throw error;
  }
}

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import {
  type DatabaseLocation,
  latestStateSchemaVersion,
  migrateForward,
  openAdminKnex,
  readStateSchemaStatus,
} from "../../../runtime/store/state-schema.js";
import { migrations } from "../../../runtime/store/migrations/index.js";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres.js";
import { runCli } from "../../support/run-cli.js";

/**
 * Servers started at once on one empty database each run `migrateForward` on their own admin
 * connection (the start-up guard, and `db migrate`). knex creates its bookkeeping tables without a
 * lock of its own: two that both find the lock table empty both insert its row, and a lock table of
 * two rows can never be locked again ("Migration table is already locked" on every later start).
 */
const INSTANCES = 4;
const ROUNDS = 5;

/** Start `INSTANCES` migrations of one database at once; each on an admin connection of its own. */
async function migrateAtOnce(location: DatabaseLocation): Promise<string[][]> {
  const admins = await Promise.all(
    // One thread: a SQLite connection waiting for a lock would block the one holding it, so a
    // conflict is returned at once and retried (separate processes wait, see the CLI test).
    Array.from({ length: INSTANCES }, () => openAdminKnex(location, { lockWaitMs: () => 0 })),
  );
  try {
    return await Promise.all(admins.map((knex) => migrateForward(knex)));
  } finally {
    await Promise.all(admins.map((knex) => knex.destroy()));
  }
}

/** Run `skillpilot db ARGS…` on the database at `location`, as its user would. */
function db(location: DatabaseLocation, ...args: string[]) {
  return location.databaseUrl
    ? runCli(["db", ...args], { DATABASE_URL: location.databaseUrl })
    : runCli(["db", ...args, "--data-dir", location.dataDir]);
}

/** Run `skillpilot db migrate --json` from `INSTANCES` processes at once; the names each applied. */
async function migrateProcessesAtOnce(location: DatabaseLocation): Promise<string[][]> {
  const runs = await Promise.all(
    Array.from({ length: INSTANCES }, () => db(location, "migrate", "--json")),
  );
  return runs.map((run) => {
    assert.equal(run.code, 0, `db migrate: ${run.stdout}${run.stderr}`);
    return (JSON.parse(run.stdout) as { applied: string[] }).applied;
  });
}

/** The database ends at this server's version, each migration applied once, one lock row. */
async function assertMigratedOnce(location: DatabaseLocation, applied: string[][]): Promise<void> {
  const knex = await openAdminKnex(location);
  try {
    const status = await readStateSchemaStatus(knex);
    assert.equal(status.database, latestStateSchemaVersion);
    const names = await appliedNames(location);
    assert.deepEqual(
      names.slice().sort(),
      migrations
        .map((m) => m.name)
        .slice()
        .sort(),
    );
    assert.deepEqual(
      applied.flat().slice().sort(),
      names.slice().sort(),
      "each migration reported applied by exactly one instance",
    );
    const locks = await knex("knex_migrations_lock").select("is_locked");
    assert.deepEqual(locks, [{ is_locked: 0 }], "knex's lock table keeps its one row, free");
  } finally {
    await knex.destroy();
  }
}

/** The migrations recorded as applied. */
async function appliedNames(location: DatabaseLocation): Promise<string[]> {
  const knex = await openAdminKnex(location);
  try {
    return (await knex("knex_migrations").select("name")).map((m) => m.name as string);
  } finally {
    await knex.destroy();
  }
}

/** Leave knex's lock table with the second row an earlier racing start inserted. */
async function duplicateLockRow(location: DatabaseLocation): Promise<void> {
  const knex = await openAdminKnex(location);
  try {
    await knex("knex_migrations_lock").insert({ is_locked: 0 });
    assert.equal((await knex("knex_migrations_lock").select()).length, 2);
  } finally {
    await knex.destroy();
  }
}

/** Fresh empty databases of one kind, made on request and removed after the file. */
interface Databases {
  name: string;
  /** Undefined when this kind cannot be made here (PostgreSQL not installed). */
  open(): Promise<{ fresh(): Promise<DatabaseLocation>; close(): Promise<void> } | undefined>;
}

const kinds: Databases[] = [
  {
    name: "SQLite (processes sharing one data directory)",
    async open() {
      const dirs: string[] = [];
      return {
        async fresh() {
          const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-migrate-race-"));
          dirs.push(dir);
          return { dataDir: dir };
        },
        close: async () => {
          await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
        },
      };
    },
  },
  {
    name: "PostgreSQL (scale-out nodes)",
    async open() {
      const pg: ThrowawayPostgres | undefined = await startThrowawayPostgres();
      if (!pg) return undefined;
      const admin: Knex = knexFactory({ client: "pg", connection: pg.url });
      let made = 0;
      return {
        async fresh() {
          const name = `race_${made++}`;
          await admin.raw(`CREATE DATABASE ${name}`);
          const url = new URL(pg.url);
          url.pathname = `/${name}`;
          return { dataDir: "", databaseUrl: url.href };
        },
        close: async () => {
          await admin.destroy();
          await pg.stop();
        },
      };
    },
  },
];

for (const kind of kinds)
  describe(`instances migrating one database at once: ${kind.name}`, function () {
    this.timeout(120_000);
    let databases: Awaited<ReturnType<Databases["open"]>>;
    before(async function () {
      databases = await kind.open();
      if (!databases) this.skip(); // PostgreSQL is not installed on this machine
    });
    after(() => databases?.close());

    it("each migration runs once and knex's lock table keeps one row", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const location = await databases!.fresh();
        await assertMigratedOnce(location, await migrateAtOnce(location));
      }
    });

    it("db migrate run by several processes at once: each migration once, one lock row", async () => {
      for (let round = 0; round < 2; round++) {
        const location = await databases!.fresh();
        await assertMigratedOnce(location, await migrateProcessesAtOnce(location));
      }
    });

    it("db rollback on a lock table an earlier race left with two rows repairs it and rolls back", async () => {
      const location = await databases!.fresh();
      await assertMigratedOnce(location, await migrateAtOnce(location));
      await duplicateLockRow(location);
      const run = await db(location, "rollback");
      assert.equal(run.code, 0, `db rollback: ${run.stdout}${run.stderr}`);
      const knex = await openAdminKnex(location);
      try {
        assert.equal((await readStateSchemaStatus(knex)).database, latestStateSchemaVersion - 1);
        assert.deepEqual(await knex("knex_migrations_lock").select("is_locked"), [
          { is_locked: 0 },
        ]);
      } finally {
        await knex.destroy();
      }
    });

    it("a lock table an earlier racing start left with two rows is repaired, not refused", async () => {
      const location = await databases!.fresh();
      const knex = await openAdminKnex(location);
      try {
        await migrateForward(knex, latestStateSchemaVersion - 1);
      } finally {
        await knex.destroy();
      }
      const before = await appliedNames(location);
      await duplicateLockRow(location);
      const applied = await migrateAtOnce(location);
      assert.ok(applied.flat().length > 0, "the pending migration ran");
      await assertMigratedOnce(location, [before, ...applied]);
    });
  });

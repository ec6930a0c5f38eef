import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Knex } from "knex";
import { PolicyRevisionFloor } from "../../../runtime/store/policy-floor.js";
import { PostgresStore } from "../../../runtime/store/postgres-store.js";
import { databaseFileName, SqliteStore } from "../../../runtime/store/sqlite-store.js";
import { type DatabaseLocation, openAdminKnex } from "../../../runtime/store/state-schema.js";
import { type CoachStore, floorKey } from "../../../runtime/domain/ports/coach-store.js";
import { startThrowawayPostgres } from "../support/throwaway-postgres.js";

interface Database {
  location: DatabaseLocation;
  open(): Promise<CoachStore>;
  cleanup(): Promise<void>;
}

const dialects: { name: string; create(): Promise<Database | undefined> }[] = [
  {
    name: "SQLite",
    async create() {
      const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-floor-store-"));
      return {
        location: { dataDir: dir },
        open: () => SqliteStore.open(path.join(dir, databaseFileName), 4),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "PostgreSQL",
    async create() {
      const pg = await startThrowawayPostgres();
      if (!pg) return undefined;
      return {
        location: { dataDir: tmpdir(), databaseUrl: pg.url },
        open: () => PostgresStore.open(pg.url, 4),
        cleanup: () => pg.stop(),
      };
    },
  },
];

for (const dialect of dialects)
  describe(`the policy revision floor shared through the database, ${dialect.name} (L11, issue #13)`, function () {
    this.timeout(60_000);
    let db: Database | undefined;
    let store: CoachStore;
    let admin: Knex;
    before(async function () {
      db = await dialect.create();
      if (!db) this.skip(); // PostgreSQL is not installed on this machine
      store = await db.open();
      admin = await openAdminKnex(db.location);
    });
    after(async () => {
      await admin?.destroy();
      await store?.close();
      await db?.cleanup();
    });

    const stored = async () =>
      Number((await admin("server_state").where({ key: "policy_revision_floor" }).first()).value);
    /** Another process raises the stored floor. */
    const raiseElsewhere = (value: number) =>
      admin("server_state").where({ key: "policy_revision_floor" }).update({ value });

    it("a launch transaction claims its revision: at or above the floor it raises it, below it the stored floor comes back and nothing changes", async () => {
      assert.equal(await stored(), 0);
      assert.equal(await store.write((tx) => tx.claimPolicyRevision(3, floorKey(1))), 3);
      assert.equal(await stored(), 3, "raised");
      assert.equal(await store.write((tx) => tx.claimPolicyRevision(3, floorKey(1))), 3);
      await raiseElsewhere(5);
      assert.equal(
        await store.write((tx) => tx.claimPolicyRevision(4, floorKey(1))),
        5,
        "refused by 5",
      );
      assert.equal(await stored(), 5, "never lowered");
      assert.equal(await store.write((tx) => tx.claimPolicyRevision(6, floorKey(1))), 6);
      assert.equal(await stored(), 6);
    });

    it("concurrent launches under different revisions leave the highest as the floor", async () => {
      const revisions = [7, 9, 8, 7, 9, 8];
      const claims = await Promise.all(
        revisions.map((r) => store.write((tx) => tx.claimPolicyRevision(r, floorKey(1)))),
      );
      assert.equal(await stored(), 9);
      // A claim refused returned a floor above its revision; an accepted one returned itself.
      for (const [i, claim] of claims.entries()) assert.ok(claim >= revisions[i]);
    });

    it("the in-memory floor follows a raise by another process: on refresh, and every period", async () => {
      const knex = await openAdminKnex(db!.location);
      const floor = await PolicyRevisionFloor.open(knex);
      try {
        floor.useStore(store);
        assert.equal(floor.current, await stored());
        await raiseElsewhere(12);
        await floor.refresh();
        assert.equal(floor.current, 12, "refreshed at once on request");
        floor.refreshEvery(20);
        await raiseElsewhere(13);
        for (let waited = 0; floor.current < 13 && waited < 2000; waited += 20)
          await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(floor.current, 13, "refreshed by the timer");
        floor.raise(11);
        await floor.flush();
        assert.equal(await stored(), 13, "a lower raise never lowers the stored floor");
      } finally {
        await floor.close();
        await knex.destroy();
      }
    });
  });

import assert from "node:assert/strict";
import knexFactory from "knex";
import { initialLearnerState } from "../../../runtime/domain/learner-state.js";
import { PostgresStore } from "../../../runtime/store/postgres-store.js";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres.js";

describe("PostgreSQL store (same interface, SERIALIZABLE + bounded retry)", function () {
  this.timeout(60_000);
  let pg: ThrowawayPostgres | undefined;
  let store: PostgresStore;

  before(async function () {
    pg = await startThrowawayPostgres();
    if (!pg) this.skip(); // PostgreSQL is not installed on this machine
    store = await PostgresStore.open(pg.url, 3);
  });
  after(async () => {
    await store?.close();
    await pg?.stop();
  });

  it("migrates and round-trips a learner, a session and a state write", async () => {
    const at = new Date().toISOString();
    const learnerId = await store.write((tx) =>
      tx.ensureLearner("pg-ada", initialLearnerState, at),
    );
    await store.write((tx) =>
      tx.insertSession({
        sessionId: "sps_pg0000000000000000000000",
        learnerId,
        locale: "de",
        contractMajor: 1,
        workflowVersion: "coach@2.3",
        curriculumRevision: "r",
        policyRevision: 3,
        createdAt: at,
        expiresAt: Date.now() + 1000,
      }),
    );
    assert.equal((await store.findSession("sps_pg0000000000000000000000"))?.locale, "de");
    await store.write((tx) =>
      tx.saveState(learnerId, { activeGoalId: "g", focusSkillId: "s" }, 1, at),
    );
    assert.deepEqual((await store.loadLearner(learnerId)).state, {
      activeGoalId: "g",
      focusSkillId: "s",
    });
    assert.equal(
      await store.write((tx) => tx.ensureLearner("pg-ada", initialLearnerState, at)),
      learnerId,
    );
  });

  it("loses no update when 8 writers read-then-write one learner concurrently (G5)", async () => {
    const learnerId = await store.write((tx) =>
      tx.ensureLearner("pg-race", initialLearnerState, new Date().toISOString()),
    );
    const perWriter = 15;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < perWriter; i++)
          await store.write(async (tx) => {
            const s = await tx.loadLearner(learnerId);
            await tx.saveState(learnerId, s.state, s.stateVersion, new Date().toISOString());
          });
      }),
    );
    assert.equal((await store.loadLearner(learnerId)).stateVersion, 1 + 8 * perWriter);
  });

  it("rolls every statement of a failed write back (C14)", async () => {
    const at = new Date().toISOString();
    const learnerId = await store.write((tx) =>
      tx.ensureLearner("pg-rollback", initialLearnerState, at),
    );
    await assert.rejects(
      store.write(async (tx) => {
        await tx.saveState(learnerId, { activeGoalId: "x", focusSkillId: null }, 1, at);
        await tx.saveProgress(
          learnerId,
          { goalId: "x", status: "mastered", attempts: 1, masteredAt: at },
          at,
        );
        throw new Error("refused");
      }),
      /refused/,
    );
    const s = await store.loadLearner(learnerId);
    assert.equal(s.stateVersion, 1);
    assert.equal(s.progress.size, 0);
  });

  it("sends held writes before a read in the same transaction and keeps their order (issue #25 item 3)", async () => {
    const at = new Date().toISOString();
    const learnerId = await store.write((tx) =>
      tx.ensureLearner("pg-held", initialLearnerState, at),
    );
    const seen = await store.write(async (tx) => {
      await tx.saveProgress(
        learnerId,
        { goalId: "a", status: "practicing", attempts: 1, masteredAt: null },
        at,
      );
      // The same row again: both writes apply, in call order.
      await tx.saveProgress(
        learnerId,
        { goalId: "a", status: "mastered", attempts: 2, masteredAt: at },
        at,
      );
      await tx.saveState(learnerId, { activeGoalId: null, focusSkillId: "s" }, 1, at);
      return tx.loadLearner(learnerId);
    });
    assert.equal(seen.stateVersion, 2);
    assert.deepEqual(seen.progress.get("a"), {
      goalId: "a",
      status: "mastered",
      attempts: 2,
      masteredAt: at,
    });
    const stored = await store.loadLearner(learnerId);
    assert.equal(stored.stateVersion, 2);
    assert.deepEqual(stored.progress.get("a"), seen.progress.get("a"));
  });

  it("fails a write whose state update matches no version with STATE_CONFLICT and commits none of it (G5, C14)", async () => {
    const at = new Date().toISOString();
    const learnerId = await store.write((tx) =>
      tx.ensureLearner("pg-stale", initialLearnerState, at),
    );
    await assert.rejects(
      store.write(async (tx) => {
        await tx.saveProgress(
          learnerId,
          { goalId: "b", status: "practicing", attempts: 1, masteredAt: null },
          at,
        );
        await tx.saveState(learnerId, { activeGoalId: "b", focusSkillId: null }, 7, at);
      }),
      (error: unknown) => (error as { code?: string }).code === "STATE_CONFLICT",
    );
    const s = await store.loadLearner(learnerId);
    assert.equal(s.stateVersion, 1);
    assert.equal(s.progress.size, 0);
  });

  it("lets 4 nodes open one empty database at once: each migrates, one after another (issue #15 item 3)", async () => {
    const admin = knexFactory({ client: "pg", connection: pg!.url });
    try {
      for (let round = 0; round < 4; round++) {
        const name = `fresh_${round}`;
        await admin.raw(`CREATE DATABASE ${name}`);
        const url = new URL(pg!.url);
        url.pathname = `/${name}`;
        const stores = await Promise.all(
          Array.from({ length: 4 }, () => PostgresStore.open(url.href, 3)),
        );
        await Promise.all(stores.map((s) => s.close()));
        const db = knexFactory({ client: "pg", connection: url.href });
        try {
          const names = (await db("knex_migrations").select("name")).map((m) => m.name);
          assert.equal(new Set(names).size, names.length, "every migration applied once");
        } finally {
          await db.destroy();
        }
      }
    } finally {
      await admin.destroy();
    }
  });
});

import assert from "node:assert/strict";
import knexFactory from "knex";
import { initialLearnerState } from "../../../runtime/domain/learner-state.js";
import type { WriteOpening, WriteTx } from "../../../runtime/domain/ports/coach-store.js";
import { PostgresStore } from "../../../runtime/store/postgres-store.js";
import { learnerWithSession as withSession } from "../support/learner-with-session.js";
import { countRoundTrips } from "../support/round-trip-counter.js";
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

  const learnerWithSession = (name: string) => withSession(store, name);

  /** A write as the write pipeline makes it: announced reads, a spend, the lock, the effect. */
  function pipelineWrite(
    learnerId: number,
    sessionId: string,
    clientRequestId: string,
    jti: string,
    use: string,
    expected = 1,
  ) {
    const now = Date.now();
    const at = new Date(now).toISOString();
    const key = { sessionId, toolName: "complete_skillpilot_goal", clientRequestId };
    const opening: WriteOpening = { learnerId, idempotency: { key, now }, capabilityJti: jti };
    return {
      opening,
      work: async (tx: WriteTx) => {
        const snapshot = await tx.loadLearner(learnerId);
        const verdict = await tx.spendCapability(jti, use, now + 60_000);
        if (verdict === "replayed") throw new Error("replayed");
        const stored = await tx.findIdempotency(key, now);
        if (stored) return { verdict, replayed: stored.response };
        const version = await tx.saveState(learnerId, snapshot.state, expected, at);
        await tx.saveProgress(
          learnerId,
          { goalId: "p", status: "practicing", attempts: version, masteredAt: null },
          at,
        );
        await tx.insertReceipt({
          receiptId: `rcp_${clientRequestId}`,
          learnerId,
          sessionId,
          operation: "complete_skillpilot_goal",
          stateVersion: version,
          recordedAt: at,
        });
        await tx.saveIdempotency({
          ...key,
          fingerprint: use,
          response: `{"v":${version}}`,
          createdAt: at,
          expiresAt: now + 60_000,
        });
        return { verdict, replayed: undefined };
      },
    };
  }

  it("takes two round trips for a write that announces its reads: BEGIN with them, its writes with COMMIT", async () => {
    const { learnerId, sessionId } = await learnerWithSession("pg-two-trips");
    const first = pipelineWrite(learnerId, sessionId, "req-1", "jti-two-trips", "use-a");
    let outcome: Awaited<ReturnType<typeof first.work>> | undefined;
    const trips = await countRoundTrips(async () => {
      outcome = await store.write(first.work, first.opening);
    });
    assert.equal(trips, 2);
    assert.deepEqual(outcome, { verdict: "fresh", replayed: undefined });
    const s = await store.loadLearner(learnerId);
    assert.equal(s.stateVersion, 2);
    assert.equal(s.progress.get("p")?.attempts, 2);
    const db = store.admin();
    assert.equal(
      (await db("spent_capabilities").where({ jti: "jti-two-trips" }).first()).use_key,
      "use-a",
    );
    assert.equal(
      (await db("receipts").where({ receipt_id: "rcp_req-1" }).first()).state_version,
      2,
    );
    // The exact retry: the same token and key, answered from the stored record, in two round trips.
    const again = pipelineWrite(learnerId, sessionId, "req-1", "jti-two-trips", "use-a");
    const replayTrips = await countRoundTrips(async () => {
      outcome = await store.write(again.work, again.opening);
    });
    assert.equal(replayTrips, 2);
    assert.deepEqual(outcome, { verdict: "repeat", replayed: '{"v":2}' });
    assert.equal((await store.loadLearner(learnerId)).stateVersion, 2);
  });

  it("commits nothing of a pipelined write whose state update matches no version, the token's spend included (G5, C14)", async () => {
    const { learnerId, sessionId } = await learnerWithSession("pg-stale-pipelined");
    const stale = pipelineWrite(learnerId, sessionId, "req-stale", "jti-stale", "use-s", 5);
    await assert.rejects(
      store.write(stale.work, stale.opening),
      (error: unknown) => (error as { code?: string }).code === "STATE_CONFLICT",
    );
    const db = store.admin();
    assert.equal(await db("spent_capabilities").where({ jti: "jti-stale" }).first(), undefined);
    assert.equal(await db("receipts").where({ receipt_id: "rcp_req-stale" }).first(), undefined);
    assert.equal((await store.loadLearner(learnerId)).stateVersion, 1);
    // Every connection of the pool is still usable after the server rolled the COMMIT back.
    for (let i = 0; i < 12; i++) {
      const ok = pipelineWrite(learnerId, sessionId, `req-ok-${i}`, `jti-ok-${i}`, "u", i + 1);
      await store.write(ok.work, ok.opening);
    }
    assert.equal((await store.loadLearner(learnerId)).stateVersion, 13);
  });

  it("spends nothing for an announced token the work never spends, and answers a read after a write from the database", async () => {
    const { learnerId } = await learnerWithSession("pg-announced");
    const at = new Date().toISOString();
    const seen = await store.write(
      async (tx) => {
        const before = await tx.loadLearner(learnerId);
        await tx.saveState(learnerId, before.state, before.stateVersion, at);
        return tx.loadLearner(learnerId);
      },
      { learnerId, capabilityJti: "jti-never-spent" },
    );
    assert.equal(seen.stateVersion, 2);
    assert.equal(
      await store.admin()("spent_capabilities").where({ jti: "jti-never-spent" }).first(),
      undefined,
    );
  });

  it("lets exactly one of 6 concurrent writes spend one token; the others find it spent (C11)", async () => {
    const { learnerId, sessionId } = await learnerWithSession("pg-one-spend");
    const verdicts = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const w = pipelineWrite(learnerId, sessionId, `req-spend-${i}`, "jti-shared", `use-${i}`);
        return store
          .write(async (tx) => {
            const snapshot = await tx.loadLearner(learnerId);
            const verdict = await tx.spendCapability("jti-shared", `use-${i}`, Date.now() + 60_000);
            if (verdict === "fresh")
              await tx.saveState(
                learnerId,
                snapshot.state,
                snapshot.stateVersion,
                new Date().toISOString(),
              );
            return verdict;
          }, w.opening)
          .catch((error: unknown) => `failed: ${String(error)}`);
      }),
    );
    assert.deepEqual([...verdicts].sort(), [
      "fresh",
      "replayed",
      "replayed",
      "replayed",
      "replayed",
      "replayed",
    ]);
    const rows = await store.admin()("spent_capabilities").where({ jti: "jti-shared" });
    assert.equal(rows.length, 1);
    assert.equal(verdicts[Number(String(rows[0].use_key).slice(4))], "fresh");
    assert.equal((await store.loadLearner(learnerId)).stateVersion, 2);
  });
});

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { initialLearnerState } from "../../../runtime/domain/learner-state.js";
import { SqliteStore } from "../../../runtime/store/sqlite-store.js";

describe("SQLite store", () => {
  let dir: string;
  let store: SqliteStore;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-store-"));
    file = path.join(dir, "data", "db.sqlite");
    store = await SqliteStore.open(file, 3);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const seedLearner = () =>
    store.write((tx) => tx.ensureLearner("ada", initialLearnerState, new Date().toISOString()));

  it("creates the database on first open with WAL; its writer leaves the WAL sync to the store", () => {
    const probe = new Database(file, { readonly: true });
    try {
      assert.equal(probe.pragma("journal_mode", { simple: true }), "wal");
      const tables = probe
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((r) => (r as { name: string }).name);
      for (const t of [
        "idempotency_records",
        "learner_state",
        "learners",
        "progress",
        "receipts",
        "sessions",
      ])
        assert.ok(tables.includes(t), t);
    } finally {
      probe.close();
    }
    const own = (store as unknown as { writer: Database.Database }).writer;
    // NORMAL: COMMIT writes the WAL, and the store syncs it before answering, off the event loop
    // (what synchronous=FULL would do inside COMMIT; sqlite-durable-commit.test.ts proves it).
    assert.equal(own.pragma("synchronous", { simple: true }), 1, "NORMAL");
    assert.ok(Number(own.pragma("busy_timeout", { simple: true })) > 0);
  });

  it(
    "takes the write lock at BEGIN: another connection cannot start a write " +
      "even while the transaction only reads",
    async () => {
      const learnerId = await seedLearner();
      const other = new Database(file);
      other.pragma("busy_timeout = 0");
      try {
        await store.write(async (tx) => {
          // reads only: a deferred BEGIN would hold no write lock yet
          await tx.loadLearner(learnerId);
          assert.throws(() => other.exec("BEGIN IMMEDIATE"), /SQLITE_BUSY|database is locked/);
        });
        other.exec("BEGIN IMMEDIATE");
        other.exec("ROLLBACK");
      } finally {
        other.close();
      }
    },
  );

  it(
    "keeps read-then-write transactions of 3 processes on one file free of " +
      "SQLITE_BUSY and lost updates",
    async function () {
      this.timeout(60_000);
      const learnerId = await seedLearner();
      await store.close();
      const worker = path.join(
        path.dirname(fileURLToPath(import.meta.url)),
        "contention-worker.ts",
      );
      const run = promisify(execFile);
      const outputs = await Promise.all(
        [0, 1, 2].map(() =>
          run(process.execPath, ["--import", "tsx", worker, file, String(learnerId), "150"]),
        ),
      );
      assert.deepEqual(
        outputs.map((o) => o.stdout.trim()),
        ["150", "150", "150"],
      );
      store = await SqliteStore.open(file, 3);
      assert.equal((await store.loadLearner(learnerId)).stateVersion, 1 + 450);
    },
  );

  it("rolls every statement of a failed write back", async () => {
    const learnerId = await seedLearner();
    const at = new Date().toISOString();
    await assert.rejects(
      store.write(async (tx) => {
        await tx.saveState(learnerId, { activeGoalId: "x", focusSkillId: null }, 1, at);
        await tx.saveProgress(
          learnerId,
          { goalId: "x", status: "mastered", attempts: 1, masteredAt: at },
          at,
        );
        throw new Error("domain refused");
      }),
      /domain refused/,
    );
    const snapshot = await store.loadLearner(learnerId);
    assert.equal(snapshot.stateVersion, 1);
    assert.deepEqual(snapshot.state, initialLearnerState);
    assert.equal(snapshot.progress.size, 0);
  });

  it("group-commits concurrent writes, rolling a failing one back alone (C14)", async () => {
    const learnerId = await seedLearner();
    const at = new Date().toISOString();
    const goals = ["g0", "g1", "g2", "g3", "g4"];
    const results = await Promise.allSettled(
      goals.map((goalId) =>
        store.write(async (tx) => {
          await tx.saveProgress(
            learnerId,
            { goalId, status: "mastered", attempts: 1, masteredAt: at },
            at,
          );
          if (goalId === "g2") throw new Error("refused");
          return goalId;
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"],
    );
    const snapshot = await store.loadLearner(learnerId);
    assert.deepEqual([...snapshot.progress.keys()].sort(), ["g0", "g1", "g3", "g4"]);
  });

  it("refuses a state save from a version that moved", async () => {
    const learnerId = await seedLearner();
    const at = new Date().toISOString();
    await store.write((tx) => tx.saveState(learnerId, initialLearnerState, 1, at));
    await assert.rejects(
      store.write((tx) => tx.saveState(learnerId, initialLearnerState, 1, at)),
      { name: "StateVersionMismatch" },
    );
  });

  it("ignores and purges idempotency records past their retention (PT1H)", async () => {
    const key = { sessionId: "sps_x", toolName: "complete_skillpilot_goal", clientRequestId: "k" };
    await store.write((tx) =>
      tx.saveIdempotency({
        ...key,
        fingerprint: "f",
        response: "{}",
        createdAt: "t",
        expiresAt: 1000,
      }),
    );
    assert.ok(await store.write((tx) => tx.findIdempotency(key, 999)));
    assert.equal(await store.write((tx) => tx.findIdempotency(key, 1000)), undefined);
    assert.equal(await store.purgeExpired(1000), 1);
  });
});

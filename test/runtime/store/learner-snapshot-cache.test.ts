import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { initialLearnerState } from "../../../runtime/domain/learner-state.js";
import type { GoalProgress, LearnerSnapshot } from "../../../runtime/domain/ports/coach-store.js";
import { LearnerSnapshotCache } from "../../../runtime/store/learner-snapshot-cache.js";
import { SqliteStore } from "../../../runtime/store/sqlite-store.js";

const snapshot = (learnerId: number, stateVersion: number): LearnerSnapshot => ({
  learnerId,
  stateVersion,
  state: { ...initialLearnerState },
  progress: new Map<string, GoalProgress>([
    ["g", { goalId: "g", status: "practicing", attempts: 1, masteredAt: null }],
  ]),
});

describe("learner snapshot cache of the embedded store", () => {
  it("serves a kept snapshot until its learner is forgotten or the data version moves", () => {
    let dataVersion = 1;
    const cache = new LearnerSnapshotCache(() => dataVersion);
    assert.equal(cache.get(7), undefined);
    const kept = cache.keep(snapshot(7, 3));
    cache.keep(snapshot(8, 1));
    assert.equal(cache.get(7), kept);
    cache.forget([7]);
    assert.equal(cache.get(7), undefined);
    assert.equal(cache.get(8)?.stateVersion, 1);
    dataVersion = 2; // another connection committed: nothing kept is trusted
    assert.equal(cache.get(8), undefined);
    cache.keep(snapshot(8, 2));
    assert.equal(cache.get(8)?.stateVersion, 2);
    cache.clear();
    assert.equal(cache.get(8), undefined);
  });

  it("freezes what it keeps, so a reader cannot change the next reader's snapshot", () => {
    const cache = new LearnerSnapshotCache(() => 0);
    const kept = cache.keep(snapshot(1, 1));
    assert.throws(() => {
      (kept.state as { activeGoalId: string | null }).activeGoalId = "x";
    }, TypeError);
    assert.throws(() => {
      (kept.progress.get("g") as { attempts: number }).attempts = 9;
    }, TypeError);
    assert.throws(() => {
      (kept as { stateVersion: number }).stateVersion = 2;
    }, TypeError);
  });

  describe("in the SQLite store", () => {
    let dir: string;
    let store: SqliteStore;
    let file: string;
    let learnerId: number;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "skillpilot-snapshots-"));
      file = path.join(dir, "db.sqlite");
      store = await SqliteStore.open(file, 3);
      learnerId = await store.write((tx) =>
        tx.ensureLearner("ada", initialLearnerState, new Date().toISOString()),
      );
    });
    afterEach(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });

    const save = (from: number, focus: string) =>
      store.write((tx) =>
        tx.saveState(learnerId, { ...initialLearnerState, focusSkillId: focus }, from, "t"),
      );

    it("reads a learner's own committed write, in and out of a write", async () => {
      const first = await store.loadLearner(learnerId);
      assert.equal(await store.loadLearner(learnerId), first, "kept between writes");
      await save(first.stateVersion, "git-basics");
      const after = await store.loadLearner(learnerId);
      assert.equal(after.stateVersion, first.stateVersion + 1);
      assert.equal(after.state.focusSkillId, "git-basics");
      // Inside a write, after the group wrote the learner: the uncommitted row, never a kept one.
      await store.write(async (tx) => {
        const before = await tx.loadLearner(learnerId);
        await tx.saveState(
          learnerId,
          { ...initialLearnerState, focusSkillId: "y" },
          before.stateVersion,
          "t",
        );
        const mid = await tx.loadLearner(learnerId);
        assert.equal(mid.stateVersion, before.stateVersion + 1);
        assert.equal(mid.state.focusSkillId, "y");
      });
      assert.equal((await store.loadLearner(learnerId)).state.focusSkillId, "y");
    });

    it("keeps the committed snapshot when a write that changed the learner is refused", async () => {
      const first = await store.loadLearner(learnerId);
      await assert.rejects(
        store.write(async (tx) => {
          await tx.saveState(
            learnerId,
            { ...initialLearnerState, focusSkillId: "z" },
            first.stateVersion,
            "t",
          );
          throw new Error("refused");
        }),
        /refused/,
      );
      const now = await store.loadLearner(learnerId);
      assert.equal(now.stateVersion, first.stateVersion);
      assert.equal(now.state.focusSkillId, first.state.focusSkillId);
    });

    it("sees a commit by another connection to the file (another process) at once", async () => {
      const first = await store.loadLearner(learnerId);
      const other = new Database(file);
      try {
        other
          .prepare(
            "UPDATE learner_state SET state_version = state_version + 1, state_json = ? WHERE learner_id = ?",
          )
          .run(JSON.stringify({ ...initialLearnerState, focusSkillId: "elsewhere" }), learnerId);
      } finally {
        other.close();
      }
      const now = await store.loadLearner(learnerId);
      assert.equal(now.stateVersion, first.stateVersion + 1);
      assert.equal(now.state.focusSkillId, "elsewhere");
      // and inside a write too
      await store.write(async (tx) => {
        assert.equal((await tx.loadLearner(learnerId)).state.focusSkillId, "elsewhere");
      });
    });

    it("sees what an administrative transaction wrote", async () => {
      const first = await store.loadLearner(learnerId);
      await store.adminTransaction((sql) =>
        sql.run("UPDATE learner_state SET state_version = state_version + 1 WHERE learner_id = ?", [
          learnerId,
        ]),
      );
      assert.equal((await store.loadLearner(learnerId)).stateVersion, first.stateVersion + 1);
    });
  });
});

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig, TEST_COMMIT_DELAY_ENV } from "../../../runtime/config/config.js";
import { initialLearnerState } from "../../../runtime/domain/learner-state.js";
import { commitWindowMarkers } from "../../../runtime/store/commit-delay-hook.js";
import { SqliteStore } from "../../../runtime/store/sqlite-store.js";
import { repoRoot } from "../support/runtime-fixture.js";

describe("the crash harness's commit-delay hook is test-only (issue #15 item 5)", () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), "skillpilot-hook-"))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("is off unless its environment variable names 1–1000 ms; anything else stops the start", async () => {
    assert.equal((await loadConfig(repoRoot, {}, {})).testCommitDelayMs, undefined);
    const on = await loadConfig(repoRoot, {}, { [TEST_COMMIT_DELAY_ENV]: "25" });
    assert.equal(on.testCommitDelayMs, 25);
    for (const value of ["0", "1001", "abc", "-5", "2.5"])
      await assert.rejects(
        loadConfig(repoRoot, {}, { [TEST_COMMIT_DELAY_ENV]: value }),
        (error: Error) => error.message.includes(TEST_COMMIT_DELAY_ENV),
        value,
      );
  });

  it("cannot be switched on from a config file", async () => {
    const file = path.join(dir, "skillpilot.config.json");
    await writeFile(file, JSON.stringify({ testCommitDelayMs: 25 }));
    await assert.rejects(loadConfig(repoRoot, { configFile: file }, {}), /testCommitDelayMs/);
  });

  it("holds a commit before and after COMMIT, marking both windows: uncommitted, then committed but unanswered", async () => {
    const store = await SqliteStore.open(path.join(dir, "db.sqlite"), 3, { delayMs: 1 });
    const write = process.stderr.write.bind(process.stderr);
    try {
      const seen: string[] = [];
      let learnerId = 0;
      let answered = false;
      // What a concurrent reader sees in each window (the reader statement runs synchronously).
      process.stderr.write = ((chunk: string) => {
        const marker = String(chunk).trim();
        if (
          learnerId &&
          (marker === commitWindowMarkers.before || marker === commitWindowMarkers.after)
        )
          void store.loadLearner(learnerId).then((s) => {
            seen.push(`${marker.split(": ")[1]} v${s.stateVersion} answered=${answered}`);
          });
        return true;
      }) as typeof process.stderr.write;
      const at = new Date().toISOString();
      learnerId = await store.write((tx) => tx.ensureLearner("hook", initialLearnerState, at));
      await store.write((tx) =>
        tx.saveState(learnerId, { activeGoalId: "g", focusSkillId: null }, 1, at),
      );
      answered = true;
      assert.deepEqual(seen, ["before-commit v1 answered=false", "after-commit v2 answered=false"]);
    } finally {
      process.stderr.write = write;
      await store.close();
    }
  });
});

import assert from "node:assert/strict";
import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { initialLearnerState } from "../../../runtime/domain/learner-state.js";
import { SqliteStore } from "../../../runtime/store/sqlite-store.js";

/** A held `fdatasync` call: the file it syncs and how to let it finish (really, or failing). */
interface HeldSync {
  fd: number;
  release(): void;
  fail(error: Error): void;
}

/**
 * Hold every `fs.fdatasync` until the test releases it, so the test decides when a sync is done
 * (no timing involved); `restore` puts the real one back.
 */
function holdSyncs() {
  const real = fs.fdatasync;
  const held: HeldSync[] = [];
  let notify: (() => void) | undefined;
  fs.fdatasync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    held.push({
      fd,
      release: () => real(fd, callback),
      fail: (error) => callback(error as NodeJS.ErrnoException),
    });
    notify?.();
  }) as typeof fs.fdatasync;
  syncBuiltinESMExports();
  return {
    held,
    /** The next held sync (waits until one is started). */
    async next(): Promise<HeldSync> {
      while (held.length === 0) await new Promise<void>((resolve) => (notify = resolve));
      return held.shift()!;
    },
    restore() {
      fs.fdatasync = real;
      syncBuiltinESMExports();
    },
  };
}

/** Whether a promise has settled by the time the event loop has gone round a few times. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("SQLite commits are on disk before they are answered, with the sync off the event loop (issue #25 item 2; G7)", () => {
  let dir: string;
  let file: string;
  let store: SqliteStore;
  let syncs: ReturnType<typeof holdSyncs>;
  let learnerId: number;
  let other: number;
  const at = new Date().toISOString();

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-durable-"));
    file = path.join(dir, "db.sqlite");
    store = await SqliteStore.open(file, 3);
    learnerId = await store.write((tx) => tx.ensureLearner("ada", initialLearnerState, at));
    other = await store.write((tx) => tx.ensureLearner("grace", initialLearnerState, at));
    syncs = holdSyncs();
  });
  afterEach(async () => {
    for (const s of syncs.held.splice(0)) s.release();
    syncs.restore();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers a write only after its WAL file is synced; reads of what it wrote wait too, others do not", async () => {
    const write = store.write((tx) =>
      tx.saveState(learnerId, { activeGoalId: "g", focusSkillId: null }, 1, at),
    );
    const sync = await syncs.next();
    // The sync is of the WAL file the commit wrote.
    assert.equal(fs.fstatSync(sync.fd).ino, fs.statSync(`${file}-wal`).ino);
    const read = store.loadLearner(learnerId);
    assert.equal(await settled(write), false, "not answered before the sync");
    assert.equal(await settled(read), false, "its learner is not read before the sync");
    assert.equal((await store.loadLearner(other)).stateVersion, 1, "other learners are read");
    sync.release();
    assert.equal(await write, 2);
    assert.equal((await read).stateVersion, 2);
  });

  it("lets writes that commit while a sync runs share the next one", async () => {
    const first = store.write((tx) =>
      tx.saveState(learnerId, { activeGoalId: "a", focusSkillId: null }, 1, at),
    );
    const firstSync = await syncs.next();
    const later = [
      store.write((tx) =>
        tx.saveState(learnerId, { activeGoalId: "b", focusSkillId: null }, 2, at),
      ),
      store.write((tx) => tx.saveState(other, { activeGoalId: "c", focusSkillId: null }, 1, at)),
    ];
    // Both commit (the writer is free) but wait: the sync running started before they committed.
    assert.equal(await settled(Promise.any(later)), false);
    assert.equal(syncs.held.length, 0, "no second sync while one runs");
    firstSync.release();
    assert.equal(await first, 2);
    const shared = await syncs.next();
    assert.equal(await settled(Promise.any(later)), false);
    shared.release();
    assert.deepEqual(await Promise.all(later), [3, 2]);
  });

  it("fails the writes a failed sync covered, and every write after it", async () => {
    const write = store.write((tx) =>
      tx.saveState(learnerId, { activeGoalId: "g", focusSkillId: null }, 1, at),
    );
    (await syncs.next()).fail(Object.assign(new Error("EIO: i/o error"), { code: "EIO" }));
    await assert.rejects(write, /EIO/);
    await assert.rejects(
      store.write((tx) => tx.saveState(other, { activeGoalId: "g", focusSkillId: null }, 1, at)),
      /EIO/,
    );
    await assert.rejects(store.loadLearner(learnerId), /EIO/);
  });
});

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { SqliteStore } from "../../../runtime/store/sqlite-store.js";
import { TxReplayStore } from "../../../runtime/domain/tx-replay-store.js";

describe("database replay store (C11)", () => {
  let dir: string;
  let file: string;
  let store: SqliteStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-replay-"));
    file = path.join(dir, "db.sqlite");
    store = await SqliteStore.open(file, 3);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const spend = (jti: string, use: string, expiresAt = new Date(10_000)) =>
    store.write((tx) => new TxReplayStore(tx).spend(jti, use, expiresAt));
  const rows = () => {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare("SELECT jti, use_key, expires_at FROM spent_capabilities ORDER BY jti")
        .all();
    } finally {
      db.close();
    }
  };

  it("answers fresh, then repeat for the same use and replayed for another (C11, G6)", async () => {
    assert.equal(await spend("jti-a", "use-1"), "fresh");
    assert.equal(await spend("jti-a", "use-1"), "repeat");
    assert.equal(await spend("jti-a", "use-2"), "replayed");
    assert.equal(await spend("jti-b", "use-2"), "fresh");
    assert.deepEqual(rows(), [
      { jti: "jti-a", use_key: "use-1", expires_at: 10_000 },
      { jti: "jti-b", use_key: "use-2", expires_at: 10_000 },
    ]);
  });

  it("leaves the token unspent when the write it authorizes is refused (C14)", async () => {
    await assert.rejects(
      store.write(async (tx) => {
        assert.equal(
          await new TxReplayStore(tx).spend("jti-c", "use-1", new Date(10_000)),
          "fresh",
        );
        throw new Error("BATCH_INCOMPLETE");
      }),
      /BATCH_INCOMPLETE/,
    );
    assert.deepEqual(rows(), []);
    assert.equal(await spend("jti-c", "use-2"), "fresh", "a corrected call can still spend it");
  });

  it("purges spent tokens once expired, together with idempotency records", async () => {
    await spend("old", "u", new Date(1_000));
    await spend("new", "u", new Date(5_000));
    assert.equal(await store.purgeExpired(2_000), 1);
    assert.deepEqual(
      rows().map((r) => (r as { jti: string }).jti),
      ["new"],
    );
  });
});

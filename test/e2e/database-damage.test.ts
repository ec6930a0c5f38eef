import assert from "node:assert/strict";
import { mkdtemp, open, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { startFixture } from "../runtime/support/runtime-fixture.js";
import { spawnServerProcess } from "../support/server-process.js";

/** A data directory a server has served from: secrets.json, and a database with sessions. */
async function servedDataDir(root: string): Promise<{ dataDir: string; dbFile: string }> {
  const dataDir = path.join(root, "data");
  const fx = await startFixture({ dataDir });
  for (let i = 0; i < 20; i++) await fx.newSession(`learner-${i}`);
  const { dbFile } = fx;
  await fx.close();
  return { dataDir, dbFile };
}

/** `skillpilot start` on `dataDir` must exit 2 with one line matching `reason`, never listen. */
async function refusedInOneLine(dataDir: string, reason: RegExp): Promise<void> {
  const server = spawnServerProcess(["--data-dir", dataDir]);
  const listening = await server.ready.then(
    () => true,
    () => false,
  );
  const code = listening ? `listened (then ${await server.stop()})` : await server.exited;
  const output = server.output();
  assert.equal(code, 2, output);
  const lines = output.trim().split("\n");
  assert.equal(lines.length, 1, output);
  assert.match(lines[0], reason);
}

describe("a damaged or lost database stops the start: one line, exit 2 (issue #21 item 8; L12, G7)", function () {
  this.timeout(120_000);
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "skillpilot-damage-"));
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  it("garbage in an inner page: PRAGMA quick_check fails, the server does not start", async () => {
    const { dataDir, dbFile } = await servedDataDir(root);
    const db = new Database(dbFile);
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    const { rootpage } = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'sessions'")
      .get() as { rootpage: number };
    db.close();
    const handle = await open(dbFile, "r+");
    await handle.write(Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
    await handle.close();
    await refusedInOneLine(
      dataDir,
      /skillpilot\.sqlite is damaged \(.*quick_check.*\): restore it from a backup/,
    );
  });

  it("an empty database beside secrets.json: the server does not start afresh", async () => {
    const { dataDir, dbFile } = await servedDataDir(root);
    await truncate(dbFile, 0);
    await refusedInOneLine(
      dataDir,
      /skillpilot\.sqlite is empty, but .*secrets\.json shows this data directory has served before/,
    );
  });

  it("an empty database without secrets (a first start that stopped half-way) starts", async () => {
    const dataDir = path.join(root, "fresh");
    const fx = await startFixture({ dataDir });
    const { dbFile } = fx;
    await fx.close();
    await rm(path.join(dataDir, "secrets.json"));
    await truncate(dbFile, 0);
    const again = await startFixture({ dataDir });
    await again.close();
  });
});

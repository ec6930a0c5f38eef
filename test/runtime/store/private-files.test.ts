import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServices, closeServices } from "../../../runtime/boot.js";
import { loadConfig } from "../../../runtime/config/config.js";
import { launchSession } from "../../../runtime/domain/launch.js";
import { secretsFileName } from "../../../runtime/secrets.js";
import { databaseFileName } from "../../../runtime/store/sqlite-store.js";
import { repoRoot, startFixture } from "../support/runtime-fixture.js";

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe("the data directory and the SQLite file are private (C15)", () => {
  let previousUmask: number;
  let dir: string;
  // A permissive umask, as on most machines: the modes must not depend on it.
  beforeEach(async () => {
    previousUmask = process.umask(0o022);
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-modes-"));
  });
  afterEach(async () => {
    process.umask(previousUmask);
    await rm(dir, { recursive: true, force: true });
  });

  it(
    "C15: a first start creates the data directory 0700 and the database, its " +
      "WAL and secrets.json 0600",
    async () => {
      const fx = await startFixture({ dataDir: path.join(dir, "data") });
      try {
        await fx.newSession("mode-learner");
        const dataDir = fx.services.config.dataDir;
        assert.equal(await mode(dataDir), 0o700);
        assert.equal(await mode(path.join(dataDir, databaseFileName)), 0o600);
        assert.equal(await mode(path.join(dataDir, `${databaseFileName}-wal`)), 0o600);
        assert.equal(await mode(path.join(dataDir, secretsFileName)), 0o600);
      } finally {
        await fx.close();
      }
    },
  );

  it(
    "C15: a database file left 0644 by an older version is tightened to 0600 on " + "start",
    async () => {
      const dataDir = path.join(dir, "old-data");
      await mkdir(dataDir, { mode: 0o755 });
      await writeFile(path.join(dataDir, databaseFileName), "", { mode: 0o644 });
      assert.equal(await mode(path.join(dataDir, databaseFileName)), 0o644);
      const services = await createServices(
        await loadConfig(repoRoot, { dataDir, logDestination: path.join(dir, "calls.log") }, {}),
      );
      try {
        const launched = await launchSession(services, { learner: "old-install", locale: "en" });
        assert.equal(launched.kind, "minted");
        assert.equal(await mode(path.join(dataDir, databaseFileName)), 0o600);
      } finally {
        await closeServices(services);
      }
    },
  );
});

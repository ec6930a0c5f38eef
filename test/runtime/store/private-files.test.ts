import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServices, closeServices } from "../../../runtime/boot.js";
import { loadConfig } from "../../../runtime/config/config.js";
import { launchSession } from "../../../runtime/domain/launch.js";
import { closeLogger, createLogger } from "../../../runtime/observability/call-log.js";
import { loadOrCreateSecrets, secretsFileName } from "../../../runtime/secrets.js";
import { preparePrivateDir } from "../../../runtime/store/private-file.js";
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
        assert.equal(await mode(fx.logFile), 0o600, "the call log (issue #15 item 10)");
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
        assert.equal(await mode(dataDir), 0o700, "the directory is tightened too (issue #15)");
      } finally {
        await closeServices(services);
      }
    },
  );

  it("C15: an existing data directory left 0755 is tightened to 0700 also when only secrets.json lives there", async () => {
    const dataDir = path.join(dir, "keys-only");
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await loadOrCreateSecrets(dataDir);
    assert.equal(await mode(dataDir), 0o700);
  });

  it("C15: a data directory that cannot be made private stops the start with what to do", async function () {
    // procfs refuses chmod even to root: a stand-in for a directory owned by someone else.
    if (!existsSync("/proc/1")) this.skip();
    await assert.rejects(preparePrivateDir("/proc/1"), (error: Error) => {
      assert.match(error.message, /accessible by other users \(mode 0555\)/);
      assert.match(error.message, /chmod 700 \/proc\/1/);
      return true;
    });
  });

  it("C15: a log file is created 0600 also in a directory that does not exist yet", async () => {
    const file = path.join(dir, "logs", "nested", "calls.log");
    const logger = createLogger(file, "info");
    logger.info("x");
    await closeLogger(logger);
    assert.equal(await mode(file), 0o600);
  });
});

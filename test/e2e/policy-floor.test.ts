import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openAdminKnex } from "../../runtime/store/state-schema.js";
import { CoachDriver } from "../runtime/support/coach-driver.js";
import { connectClient, errorCode, type ToolResult } from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture, useServedClient } from "../runtime/support/runtime-fixture.js";
import { type ServerCluster, startCluster } from "../runtime/support/server-cluster.js";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../runtime/support/throwaway-postgres.js";
import { runCli as skillpilot } from "../support/run-cli.js";
import { startServerProcess } from "../support/server-process.js";

/** Run the compiled CLI; resolves with exit code and output instead of throwing. */

const baseLine = async () =>
  JSON.parse(await readFile(path.join(repoRoot, "release/line.json"), "utf8")) as Record<
    string,
    unknown
  >;

describe("policyRevision is monotonic at run time: the database keeps a floor (L11)", () => {
  let dir: string;
  let lineFile: string;
  let line: Record<string, unknown>;
  const setRevision = (policyRevision: number) =>
    writeFile(lineFile, JSON.stringify({ ...line, policyRevision }));

  const served = useServedClient("2026-07-28 (SDK v2)", async () => {
    line = await baseLine();
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-floor-"));
    lineFile = path.join(dir, "line.json");
    await setRevision(10);
    return startFixture({ lineFile });
  });
  let d: CoachDriver;
  before(() => {
    d = new CoachDriver(served.client, served.fx);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const context = (sid: string): Promise<ToolResult> =>
    d.call("get_skillpilot_learning_context", { learningSessionId: sid });
  const floor = async () =>
    Number(
      (await served.fx.db("server_state").where({ key: "policy_revision_floor" }).first()).value,
    );

  it(
    "lowering the revision never revives sessions a bump retired: the lowered line fails " +
      "closed (TEMPORARILY_UNAVAILABLE) for calls and launches, and is logged",
    async () => {
      const sid = await served.fx.newSession("floor-learner");
      assert.equal((await context(sid)).isError, undefined);
      await served.fx.services.stateGuard?.floor.flush();
      assert.equal(await floor(), 10, "the revision served is the floor");

      await setRevision(11);
      assert.equal(errorCode(await context(sid)), "SESSION_VERSION_UNAVAILABLE", "retired");
      await served.fx.services.stateGuard?.floor.flush();
      assert.equal(await floor(), 11, "the bump raised the floor in the database");

      await setRevision(10);
      assert.equal(errorCode(await context(sid)), "TEMPORARILY_UNAVAILABLE", "not revived");
      const launch = await served.fx.launch({ learner: "floor-learner", locale: "en" });
      assert.equal(launch.status, 503);
      assert.equal(launch.body.code, "TEMPORARILY_UNAVAILABLE");
      assert.equal(await floor(), 11);

      await setRevision(11);
      assert.equal(errorCode(await context(sid)), "SESSION_VERSION_UNAVAILABLE", "still retired");
      const fresh = await served.fx.newSession("floor-learner");
      assert.equal((await context(fresh)).isError, undefined);
    },
  );

  it("logs the refused lowered line", async () => {
    const log = await served.fx.stopAndReadLog();
    assert.match(log, /"policyRevision":10,"floor":11,.*contract line below the revision floor/);
  });
});

describe("policyRevision is monotonic across restarts: start refuses a line below the floor (L11)", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-floor-cli-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("exit 2 with a clear message, for `start` and `session start`; a higher line starts", async () => {
    const line = await baseLine();
    const lineFile = path.join(dir, "line.json");
    const config = path.join(dir, "skillpilot.config.json");
    await writeFile(config, JSON.stringify({ lineFile }));
    const args = ["--data-dir", path.join(dir, "data"), "--config", config];
    const setRevision = (policyRevision: number) =>
      writeFile(lineFile, JSON.stringify({ ...line, policyRevision }));

    await setRevision(5);
    const minted = await skillpilot(["session", "start", "--learner", "ada", ...args]);
    assert.equal(minted.code, 0, minted.stderr);
    assert.match(minted.stdout, /^sps_/);

    await setRevision(4);
    for (const command of [
      ["session", "start", "--learner", "ada"],
      ["start", "--port", "0"],
    ]) {
      const refused = await skillpilot([...command, ...args]);
      assert.equal(refused.code, 2, `${command.join(" ")}: ${refused.stdout}${refused.stderr}`);
      assert.match(
        refused.stderr,
        /policyRevision 4 is below 5, the highest revision .* was served under.*Set policyRevision to 5 or higher/s,
      );
      assert.doesNotMatch(refused.stderr, /\n\s+at /, "no stack");
    }

    await setRevision(6);
    assert.equal((await skillpilot(["session", "start", "--learner", "ada", ...args])).code, 0);
  });
});

/** Sessions and learners of a SQLite data directory, for "nothing written" assertions. */
async function sqliteRows(dataDir: string) {
  const knex = await openAdminKnex({ dataDir });
  try {
    return {
      sessions: (await knex("sessions").select("policy_revision").orderBy("session_id")).map((r) =>
        Number(r.policy_revision),
      ),
      learners: (await knex("learners").select("external_name").orderBy("id")).map(
        (r) => r.external_name as string,
      ),
      floor: Number((await knex("server_state").where({ key: FLOOR_KEY }).first()).value),
    };
  } finally {
    await knex.destroy();
  }
}

const FLOOR_KEY = "policy_revision_floor";

describe("a floor raised by another process binds a running server (L11, issue #13 F1)", function () {
  this.timeout(60_000);
  let dir: string;
  let line: Record<string, unknown>;
  beforeEach(async () => {
    line = await baseLine();
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-floor-shared-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A line file at `revision` and a config naming it, for a process of its own. */
  const lineConfig = async (name: string, revision: number) => {
    const lineFile = path.join(dir, `${name}.line.json`);
    await writeFile(lineFile, JSON.stringify({ ...line, policyRevision: revision }));
    const config = path.join(dir, `${name}.config.json`);
    await writeFile(config, JSON.stringify({ lineFile }));
    return { lineFile, config };
  };

  it(
    "the review's repro through the CLI: start at 3, `session start` elsewhere, the line edited " +
      "to 2 while the server runs: POST /api/sessions answers TEMPORARILY_UNAVAILABLE and " +
      "writes nothing",
    async () => {
      const { lineFile, config } = await lineConfig("shared", 3);
      const dataDir = path.join(dir, "data");
      const server = await startServerProcess(["--data-dir", dataDir, "--config", config]);
      try {
        const other = await skillpilot([
          "session",
          "start",
          "--learner",
          "alice",
          "--data-dir",
          dataDir,
          "--config",
          config,
        ]);
        assert.equal(other.code, 0, other.stderr);
        await writeFile(lineFile, JSON.stringify({ ...line, policyRevision: 2 }));
        const before = await sqliteRows(dataDir);
        const res = await fetch(`${server.origin}/api/sessions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ learner: "bob" }),
        });
        assert.equal(res.status, 503);
        assert.equal(((await res.json()) as { code: string }).code, "TEMPORARILY_UNAVAILABLE");
        assert.deepEqual(await sqliteRows(dataDir), before, "nothing written");
        assert.deepEqual(before.sessions, [3]);
        assert.equal(before.floor, 3);
      } finally {
        assert.equal(await server.stop(), 0, server.output());
      }
    },
  );

  it(
    "a launch is decided against the stored floor in its own transaction, not the server's " +
      "in-memory copy: refused, nothing written, and the server's calls fail closed from then on",
    async () => {
      const own = await lineConfig("own", 20);
      const fx = await startFixture({ lineFile: own.lineFile });
      try {
        const client = await connectClient(fx, "2026-07-28 (SDK v2)");
        const context = (sid: string) =>
          client.callTool("get_skillpilot_learning_context", { learningSessionId: sid });
        try {
          const sid = await fx.newSession("alice");
          assert.equal((await context(sid)).isError, undefined);
          // Another process on the same database serves revision 21.
          const elsewhere = await lineConfig("elsewhere", 21);
          const other = await skillpilot([
            ...["session", "start", "--learner", "carol"],
            ...["--data-dir", fx.services.config.dataDir, "--config", elsewhere.config],
          ]);
          assert.equal(other.code, 0, other.stderr);
          // The server's copy is still 20 (until its next refresh, 5 s): the launch reads the store.

          const before = await sqliteRows(fx.services.config.dataDir);
          const launch = await fx.launch({ learner: "bob", locale: "en" });
          assert.equal(launch.status, 503);
          assert.equal(launch.body.code, "TEMPORARILY_UNAVAILABLE");
          assert.deepEqual(await sqliteRows(fx.services.config.dataDir), before, "nothing written");
          assert.equal(errorCode(await context(sid)), "TEMPORARILY_UNAVAILABLE");
        } finally {
          await client.close();
        }
        assert.match(
          await fx.stopAndReadLog(),
          /"policyRevision":20,"floor":21,.*contract line below the revision floor/,
        );
      } finally {
        await fx.close();
      }
    },
  );

  it("a change of the line file re-reads the stored floor: calls fail closed without a launch", async () => {
    const own = await lineConfig("own", 30);
    const fx = await startFixture({ lineFile: own.lineFile });
    try {
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const sid = await fx.newSession("alice");
        const context = () =>
          client.callTool("get_skillpilot_learning_context", { learningSessionId: sid });
        assert.equal((await context()).isError, undefined);
        const elsewhere = await lineConfig("elsewhere", 31);
        const other = await skillpilot([
          ...["session", "start", "--learner", "carol"],
          ...["--data-dir", fx.services.config.dataDir, "--config", elsewhere.config],
        ]);
        assert.equal(other.code, 0, other.stderr);
        // The same revision, written again (an edit elsewhere in the file).
        await writeFile(own.lineFile, JSON.stringify({ ...line, policyRevision: 30 }, null, 2));
        let code: string | undefined;
        for (let waited = 0; code === undefined && waited < 2000; waited += 50) {
          code = errorCode(await context());
          if (code === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.equal(code, "TEMPORARILY_UNAVAILABLE");
        assert.equal(fx.services.stateGuard?.floor.current, 31);
      } finally {
        await client.close();
      }
    } finally {
      await fx.close();
    }
  });
});

describe("two instances on one PostgreSQL database share the floor (L11, issue #13 F1)", function () {
  this.timeout(120_000);
  let pg: ThrowawayPostgres | undefined;
  let cluster: ServerCluster | undefined;
  let dir: string;
  let line: Record<string, unknown>;
  const lineFileOf = (i: number) => path.join(dir, `node-${i}.line.json`);
  const setRevision = (i: number, policyRevision: number) =>
    writeFile(lineFileOf(i), JSON.stringify({ ...line, policyRevision }));

  before(async function () {
    pg = await startThrowawayPostgres();
    if (!pg) this.skip(); // PostgreSQL is not installed on this machine
    line = await baseLine();
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-floor-pg-"));
    await setRevision(0, 2);
    await setRevision(1, 2);
    cluster = await startCluster(pg.url, 2, (i) => ({ lineFile: lineFileOf(i) }));
  });
  after(async () => {
    try {
      await cluster?.close();
    } finally {
      await pg?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  });

  it(
    "instance A serves revision 3: instance B, still on a line at 2, refuses launches at once " +
      "(nothing written) and its calls within one refresh period",
    async () => {
      const c = cluster!;
      const sid = await c.launch("bea", 1);
      const client = await connectClient(
        { mcpUrl: c.urls[1], authorize: c.authorize },
        "2026-07-28 (SDK v2)",
      );
      try {
        const context = () =>
          client.callTool("get_skillpilot_learning_context", { learningSessionId: sid });
        assert.equal((await context()).isError, undefined);

        await setRevision(0, 3);
        await c.launch("ann", 0);
        const rows = async () => ({
          sessions: (await c.db("sessions").select("policy_revision")).map((r) =>
            Number(r.policy_revision),
          ),
          learners: (await c.db("learners").select("external_name")).map((r) => r.external_name),
        });
        const before = await rows();
        const refused = await fetch(`${c.instances[1].origin}/api/sessions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ learner: "bob", locale: "en" }),
        });
        assert.equal(refused.status, 503);
        assert.equal(((await refused.json()) as { code: string }).code, "TEMPORARILY_UNAVAILABLE");
        assert.deepEqual(await rows(), before, "nothing written");
        assert.deepEqual(before.sessions.sort(), [2, 3]);

        let code: string | undefined;
        for (let waited = 0; code === undefined && waited < 7000; waited += 100) {
          code = errorCode(await context());
          if (code === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.equal(code, "TEMPORARILY_UNAVAILABLE");
        const floor = await c.db("server_state").where({ key: FLOOR_KEY }).first();
        assert.equal(Number(floor.value), 3);
      } finally {
        await client.close();
      }
    },
  );

  it("a second instance started on a line below the shared floor is refused (exit 2)", async () => {
    const c = cluster!;
    const config = path.join(dir, "late.config.json");
    await writeFile(
      config,
      JSON.stringify({
        ...JSON.parse(await readFile(c.configFile, "utf8")),
        lineFile: lineFileOf(1),
      }),
    );
    const late = await skillpilot(
      ["start", "--port", "0", "--data-dir", path.join(dir, "late"), "--config", config],
      { ...c.env },
    );
    assert.equal(late.code, 2, late.stdout + late.stderr);
    assert.match(late.stderr, /policyRevision 2 is below 3/);
  });
});

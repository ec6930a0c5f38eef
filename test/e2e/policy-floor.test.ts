import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CoachDriver } from "../runtime/support/coach-driver.js";
import { errorCode, type ToolResult } from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture, useServedClient } from "../runtime/support/runtime-fixture.js";
import { runCli as skillpilot } from "../support/run-cli.js";

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

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot, startFixture, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";

const run = promisify(execFile);
const successor = { contractMajor: 2, launchUrl: "https://skillpilot.com/coach/v2/start" };

describe("first-party session launch under the contract line (L11)", () => {
  let fx: RuntimeFixture;
  let lineFile: string;
  let baseLine: Record<string, unknown>;

  const setLine = (patch: Record<string, unknown>) =>
    writeFile(lineFile, JSON.stringify({ ...baseLine, ...patch }));
  const counts = async () => ({
    sessions: Number((await fx.db("sessions").count({ n: "*" }))[0].n),
    learners: Number((await fx.db("learners").count({ n: "*" }))[0].n),
  });

  let policyDir: string;
  let allowlistFile: string;

  before(async () => {
    // Revision 7 throughout: the first launch raises the server's revision floor to it (L11).
    baseLine = {
      ...(JSON.parse(await readFile(path.join(repoRoot, "release/line.json"), "utf8")) as Record<
        string,
        unknown
      >),
      policyRevision: 7,
    };
    policyDir = await mkdtemp(path.join(tmpdir(), "skillpilot-line-"));
    lineFile = path.join(policyDir, "line.json");
    allowlistFile = path.join(policyDir, "allowlist.json");
    await writeFile(allowlistFile, JSON.stringify({ launchOrigins: ["https://skillpilot.com"] }));
    await setLine({});
    fx = await startFixture({ lineFile, allowlistFile });
  });
  after(async () => {
    await fx?.close();
    await rm(policyDir, { recursive: true, force: true });
  });

  it("ALLOW mints an sps_ session pinned to workflow, curriculum and policyRevision", async () => {
    await setLine({ policyRevision: 7 });
    const res = await fx.launch({ learner: "allow-learner", locale: "de" });
    assert.equal(res.status, 201);
    assert.match(String(res.body.learningSessionId), /^sps_[A-Za-z0-9_-]{22,64}$/);
    assert.equal(res.body.communicationLocale, "de");
    assert.ok(
      !JSON.stringify(res.body).includes("allow-learner"),
      "the learner name stays in the backend (C15)",
    );
    const row = await fx.db("sessions").where({ session_id: res.body.learningSessionId }).first();
    assert.equal(row.policy_revision, 7);
    assert.equal(row.workflow_version, "coach@2.3");
    assert.equal(row.curriculum_revision, fx.services.curriculum.revision);
    assert.equal(row.locale, "de");
  });

  it("WARN mints nothing without the explicit acknowledgement, and mints with it", async () => {
    await setLine({ supportLifecycle: "DEPRECATED", newSessionPolicy: "WARN", successor });
    const before = await counts();
    const asked = await fx.launch({ learner: "warn-learner" });
    assert.equal(asked.status, 409);
    assert.deepEqual(asked.body, { acknowledgementRequired: true, successor });
    assert.deepEqual(await counts(), before);
    const acknowledged = await fx.launch({ learner: "warn-learner", acknowledgeSuccessor: true });
    assert.equal(acknowledged.status, 201);
    assert.equal(acknowledged.body.newSessionPolicy, "WARN");
  });

  it(
    "WARN with a successor off the first-party allowlist mints nothing " +
      "(TEMPORARILY_UNAVAILABLE)",
    async () => {
      await setLine({
        newSessionPolicy: "WARN",
        successor: { contractMajor: 2, launchUrl: "https://elsewhere.example/start" },
      });
      const before = await counts();
      const res = await fx.launch({ learner: "warn-offlist", acknowledgeSuccessor: true });
      assert.equal(res.status, 503);
      assert.equal(res.body.code, "TEMPORARILY_UNAVAILABLE");
      assert.deepEqual(await counts(), before);
    },
  );

  it(
    "BLOCK with a verified successor mints nothing and answers " +
      "MAJOR_UPGRADE_REQUIRED naming it",
    async () => {
      await setLine({ newSessionPolicy: "BLOCK", successor });
      const before = await counts();
      const res = await fx.launch({ learner: "block-learner", acknowledgeSuccessor: true });
      assert.equal(res.status, 410);
      assert.equal(res.body.code, "MAJOR_UPGRADE_REQUIRED");
      assert.deepEqual(res.body.successor, successor);
      assert.ok(String(res.body.recovery).includes(successor.launchUrl));
      assert.deepEqual(await counts(), before);
    },
  );

  it("BLOCK without a successor mints nothing and answers TEMPORARILY_UNAVAILABLE", async () => {
    await setLine({ newSessionPolicy: "BLOCK", successor: null });
    const before = await counts();
    const res = await fx.launch({ learner: "block-none" });
    assert.equal(res.status, 503);
    assert.equal(res.body.code, "TEMPORARILY_UNAVAILABLE");
    assert.equal(res.body.successor, undefined);
    assert.deepEqual(await counts(), before);
  });

  it("an invalid line fails closed", async () => {
    await setLine({ newSessionPolicy: "WARN", successor: null });
    const res = await fx.launch({ learner: "invalid-line" });
    assert.equal(res.status, 503);
  });

  it("rejects a malformed launch request with INVALID_INPUT", async () => {
    await setLine({});
    for (const body of [
      {},
      { learner: "" },
      { learner: "x", locale: "fr" },
      { learner: "x", extra: true },
    ]) {
      const res = await fx.launch(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, "INVALID_INPUT");
    }
    for (const raw of ['{"learner": "x"', "x".repeat(20_000)]) {
      const res = await fetch(`${fx.server.origin}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: raw,
      });
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { code: string }).code, "INVALID_INPUT");
    }
  });

  it("`skillpilot session start` prints an sps_ id on ALLOW, exits 1 on BLOCK", async function () {
    this.timeout(60_000);
    const config = path.join(fx.dir, "cli.config.json");
    await writeFile(
      config,
      JSON.stringify({ dataDir: path.join(fx.dir, "data"), lineFile, allowlistFile }),
    );
    const cli = (args: string[]) =>
      run(
        process.execPath,
        [path.join(repoRoot, "bin/skillpilot.js"), "session", "start", "--config", config, ...args],
        { cwd: repoRoot },
      ).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    await setLine({});
    const ok = await cli(["--learner", "cli-learner", "--locale", "de"]);
    assert.equal(ok.code, 0, ok.stderr);
    const sid = ok.stdout.trim();
    assert.match(sid, /^sps_[A-Za-z0-9_-]{22,64}$/);
    assert.equal((await fx.db("sessions").where({ session_id: sid }).first()).locale, "de");
    await setLine({ newSessionPolicy: "BLOCK", successor: null });
    const blocked = await cli(["--learner", "cli-learner"]);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, /^TEMPORARILY_UNAVAILABLE:/);
  });
});

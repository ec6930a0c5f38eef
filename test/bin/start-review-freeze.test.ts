import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { access, appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freeze } from "../../release/freeze/freeze.js";
import { prepare } from "../../release/prepare/prepare.js";
import {
  cli,
  cliVerify,
  copyProject,
  editJson,
  makeTemplateProject,
  regenerate,
  removeProject,
} from "../release/support/temp-project.js";
import { repoRoot } from "../support/temp-project.js";

/** Run `skillpilot start` until it prints its MCP URL (then SIGTERM) or exits by itself. */
function start(
  root: string,
  dataDir: string,
  extra: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; served: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(repoRoot, "bin/skillpilot.js"),
        "-C",
        root,
        "start",
        "--port",
        "0",
        "--data-dir",
        dataDir,
        ...extra,
      ],
      {
        env: { ...process.env, SKILLPILOT_LOG: path.join(dataDir, "calls.log") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    let served = false;
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      if (!served && /MCP endpoint http:\/\//.test(stdout)) {
        served = true;
        child.kill("SIGTERM");
      }
    });
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr, served }));
  });
}

describe("skillpilot start under a review freeze (L3)", function () {
  this.timeout(120_000);
  let template: string;
  let root: string;
  let dataDir: string;
  before(async () => {
    template = await makeTemplateProject();
    // What the server runs, so the freeze pins a real build: its code and its packages.
    for (const tree of ["curricula", "runtime", "package-lock.json", "bin", "build/runtime"])
      await cp(path.join(repoRoot, tree), path.join(template, tree), { recursive: true });
  });
  after(() => removeProject(template));
  beforeEach(async () => {
    root = await copyProject(template);
    dataDir = await mkdtemp(path.join(tmpdir(), "sp-freeze-data-"));
    await prepare(root);
    assert.equal((await freeze(root, "1.1.3", new Date("2026-11-30T00:00:00Z"))).outcome, "done");
  });
  afterEach(async () => {
    await removeProject(root);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("starts when the served contract is the frozen one", async () => {
    const run = await start(root, dataDir);
    assert.equal(run.served, true, run.stderr);
    assert.match(run.stdout, /Review freeze: contract matches frozen 1\.1\.3/);
  });

  it(
    "refuses to start on a contract that drifted from the frozen one, before " +
      "opening any database",
    async () => {
      await editJson(root, "schemas/tools/complete_skillpilot_goal.json", (tool) => {
        tool.description = `${String(tool.description)} Changed during review.`;
      });
      await regenerate(root);
      const run = await start(root, dataDir);
      assert.equal(run.served, false);
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        /differs from the contract frozen for review in 1\.1\.3.*refusing to start/,
      );
      await assert.rejects(
        access(path.join(dataDir, "secrets.json")),
        "nothing was created in the data dir",
      );
    },
  );

  it(
    "starts on a drifted contract only when told so explicitly " + "(--allow-contract-drift)",
    async () => {
      await editJson(root, "schemas/tools/complete_skillpilot_goal.json", (tool) => {
        tool.description = `${String(tool.description)} Changed during review.`;
      });
      await regenerate(root);
      const run = await start(root, dataDir, ["--allow-contract-drift"]);
      assert.equal(run.served, true, run.stderr);
      assert.match(run.stdout, /explicitly overridden/);
    },
  );

  it(
    "L3: refuses to start when the server build changed while frozen, naming the files " +
      "in one line, exit 2, before opening any database",
    async () => {
      await appendFile(path.join(root, "runtime/domain/learning-rules.ts"), "\n// changed\n");
      await editJson(root, "curricula/skillpilot-basics.curriculum.json", (c) => {
        (c.title as Record<string, string>).en = "Git essentials (revised)";
      });
      const run = await start(root, dataDir);
      assert.equal(run.served, false);
      assert.equal(run.code, 2);
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, run.stderr);
      assert.match(
        lines[0],
        /^skillpilot: the server build \(sha256 [0-9a-f]{12}…\) differs from the build frozen for review in 1\.1\.3 \(sha256 [0-9a-f]{12}…\): changed code \(runtime\/domain\/learning-rules\.ts\), curricula \(curricula\/skillpilot-basics\.curriculum\.json\); refusing to start/,
      );
      await assert.rejects(access(path.join(dataDir, "secrets.json")));
      const overridden = await start(root, dataDir, ["--allow-contract-drift"]);
      assert.equal(overridden.served, true, overridden.stderr);
      assert.match(overridden.stdout, /changed code .*explicitly overridden/);
    },
  );

  it("refuses a hand-edited compiled file and a changed start command although no source of the runtime changed", async () => {
    await appendFile(
      path.join(root, "build/runtime/domain/learning-rules.js"),
      "\n// patched in place\n",
    );
    const compiled = await start(root, dataDir);
    assert.equal(compiled.code, 2);
    assert.equal(compiled.served, false);
    assert.match(
      compiled.stderr,
      /changed compiled \(build\/runtime\/domain\/learning-rules\.js\); refusing to start/,
    );
    await cp(
      path.join(repoRoot, "build/runtime/domain/learning-rules.js"),
      path.join(root, "build/runtime/domain/learning-rules.js"),
    );
    assert.equal((await start(root, dataDir)).served, true);
    await appendFile(path.join(root, "bin/commands/start.command.ts"), "\n// changed\n");
    const launcher = await start(root, dataDir);
    assert.equal(launcher.code, 2);
    assert.match(launcher.stderr, /changed code \(bin\/commands\/start\.command\.ts\)/);
  });

  it("L3: a dependency upgrade is a build change; a toolchain-only module is not", async () => {
    await editJson(root, "package-lock.json", (lock) => {
      const packages = lock.packages as Record<string, Record<string, unknown>>;
      packages["node_modules/koa"].version = "99.0.0";
    });
    // Not imported by the runtime: checks and release code may change during review.
    await cp(path.join(repoRoot, "checks"), path.join(root, "checks"), { recursive: true });
    const run = await start(root, dataDir);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /changed dependencies \(node_modules\/koa\); refusing/);
  });

  it("L3: verify shows the frozen build and fails while the working tree's build differs", async () => {
    const clean = cli(root, "verify");
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(
      clean.stderr,
      /SERVER_BUILD_FROZEN.*1\.1\.3 is frozen with server build sha256 [0-9a-f]{64} \(code [0-9a-f]{12}…, generated [0-9a-f]{12}…, curricula [0-9a-f]{12}…, skills [0-9a-f]{12}…, ui [0-9a-f]{12}…, dependencies [0-9a-f]{12}…, compiled [0-9a-f]{12}…\)/,
    );
    await appendFile(path.join(root, "skills/skillpilot-coach/SKILL.md"), "Changed in review.\n");
    const drifted = cliVerify(root);
    assert.equal(drifted.status, 1);
    assert.match(
      drifted.output,
      /SERVER_BUILD_DRIFTED_WHILE_FROZEN.*changed skills \(skills\/skillpilot-coach\/SKILL\.md\)/,
    );
  });
});

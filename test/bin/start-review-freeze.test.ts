import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { access, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freeze } from "../../release/freeze/freeze.js";
import { prepare } from "../../release/prepare/prepare.js";
import {
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
    await cp(path.join(repoRoot, "curricula"), path.join(template, "curricula"), {
      recursive: true,
    });
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
});

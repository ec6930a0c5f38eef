import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../support/run-cli.js";
import { spawnServerProcess } from "../support/server-process.js";
import { repoRoot, tempProject } from "../support/temp-project.js";
import { spawn } from "node:child_process";

/** Start `node <cli> start` and return its output once it listens, then stop it. */
async function startOutput(cli: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [cli, "start", "--port", "0", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Start a learning session")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => reject(new Error(`start exited early:\n${out}`)));
  });
  child.kill("SIGTERM");
  await exited;
  return out;
}

describe("skillpilot start warns when what it serves is older than its sources (issue #24 item 4)", function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-freshness-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("a build older than its sources (an edited generated/ file): names it and the fix, and still serves", async () => {
    // A copy of the toolchain as built, whose generated/ source then moves on.
    const tool = path.join(dir, "tool");
    await cp(path.join(repoRoot, "build"), path.join(tool, "build"), { recursive: true });
    await cp(path.join(repoRoot, "bin/skillpilot.js"), path.join(tool, "bin/skillpilot.js"));
    await cp(path.join(repoRoot, "package.json"), path.join(tool, "package.json"));
    await cp(path.join(repoRoot, "generated"), path.join(tool, "generated"), { recursive: true });
    await symlink(path.join(repoRoot, "node_modules"), path.join(tool, "node_modules"));
    const cli = path.join(tool, "bin/skillpilot.js");
    const fresh = await startOutput(cli, ["-C", repoRoot, "--data-dir", path.join(dir, "d1")]);
    assert.doesNotMatch(fresh, /older than its sources/, fresh);
    const file = path.join(tool, "generated/tools.gen.ts");
    await writeFile(file, `${await readFile(file, "utf8")}// moved on\n`);
    const stale = await startOutput(cli, ["-C", repoRoot, "--data-dir", path.join(dir, "d2")]);
    assert.match(
      stale,
      /warning: the compiled build in build\/ is older than its sources \(generated\/tools\.gen\.ts changed since it was built\).*Run `npm run build`/,
    );
    assert.match(stale, /listening: MCP endpoint/, "it still serves");
  });

  it("a widget edited under ui/ but not activated: names the page and `ui build --activate`", async () => {
    const project = await tempProject(repoRoot, [
      "schemas",
      "release",
      "generated",
      "contracts/ui",
      "curricula",
      "ui",
    ]);
    try {
      const page = path.join(project.root, "ui/goal-visualization/index.html");
      await writeFile(page, (await readFile(page, "utf8")).replace("<title>", "<title>Edited "));
      const server = spawnServerProcess(["-C", project.root], {}, 0);
      const up = await server.ready;
      await up.printed("Start a learning session");
      await up.stop();
      assert.match(
        up.output(),
        /warning: ui\/goal-visualization changed since it was activated.*`npx skillpilot ui build --activate`/,
      );
    } finally {
      await project.cleanup();
    }
  });

  it("lint, contract show and start give the same one-line warning when generated/ is behind schemas/", async () => {
    const fresh = await runCli(["lint"]);
    assert.doesNotMatch(fresh.stderr, /generated\/ is older than/, fresh.stderr);
    const project = await tempProject(repoRoot, [
      "schemas",
      "release",
      "generated",
      "contracts/ui",
      "curricula",
      "ui",
    ]);
    try {
      const plugin = path.join(project.root, "schemas/plugin.json");
      await writeFile(plugin, `${await readFile(plugin, "utf8")}\n`);
      const warning =
        "skillpilot: warning: generated/ is older than schemas/plugin.json: run `skillpilot generate` to bring it up to date";
      const lint = await runCli(["-C", project.root, "lint"]);
      assert.ok(lint.stderr.split("\n").includes(warning), lint.stderr);
      const shown = await runCli(["-C", project.root, "contract", "show"]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.ok(shown.stderr.split("\n").includes(warning), shown.stderr);
      const other = await runCli([
        "-C",
        project.root,
        "lint",
        path.join(repoRoot, "generated/contract.snapshot.json"),
      ]);
      assert.doesNotMatch(
        other.stderr,
        /generated\/ is older than/,
        "another file is not judged by generated/",
      );
      const server = spawnServerProcess(["-C", project.root], {}, 0);
      const up = await server.ready;
      await up.printed("Start a learning session");
      await up.stop();
      assert.ok(up.output().includes(warning), up.output());
    } finally {
      await project.cleanup();
    }
  });

  it("auth token --ttl below 60 seconds is refused, saying the minimum (never silently 60)", async () => {
    const r = await runCli(["auth", "token", "--learner", "ada", "--ttl", "30"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /at least 60/);
    assert.equal(r.stdout, "");
    assert.match(
      (await runCli(["auth", "token", "--help"])).stdout,
      /lifetime in seconds, at least 60/,
    );
  });
});

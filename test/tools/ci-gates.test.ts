import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { git as gitIn, repoRoot, tempProject } from "../support/temp-project.js";

const gate = path.join(repoRoot, "tools/ci-gates.sh");

const cli = path.join(repoRoot, "bin/skillpilot.js");

/** A throwaway git repository holding what the gates read of this project. */
async function gitProject() {
  const project = await tempProject(repoRoot, [
    "schemas",
    "generated",
    "release",
    "contracts",
    "ui",
    "skills",
  ]);
  const git = (...args: string[]) => gitIn(project.root, ...args);
  // The committed landing record names commits of this repository, not of the throwaway one.
  await rm(path.join(project.root, "contracts/gates-baseline.json"), { force: true });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "contract");
  const generate = () => {
    const r = spawnSync("node", [cli, "-C", project.root, "generate"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  };
  // Contract changes are made where developers make them: in schemas/, then generate.
  const removeTool = async (name: string) => {
    await rm(path.join(project.root, "schemas/tools", `${name}.json`));
    generate();
    git("add", "-A");
    git("commit", "-q", "-m", `remove ${name}`);
  };
  const unrelatedCommit = async (message = "docs") => {
    await writeFile(path.join(project.root, `NOTES-${message}.md`), `${message}\n`);
    git("add", "-A");
    git("commit", "-q", "-m", message);
  };
  const run = (extra: string[] = [], env: Record<string, string> = {}, record = false) => {
    const r = spawnSync(
      "bash",
      [gate, project.root, ...(record ? ["--record"] : []), "--", ...extra],
      { encoding: "utf8", env: { ...process.env, ...env } },
    );
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { ...project, git, generate, removeTool, unrelatedCommit, run };
}

describe("CI contract gates: tools/ci-gates.sh always compares against something (L11, L12.2)", function () {
  this.timeout(120_000);

  it(
    "a pull request that removes a tool fails against the merge base with main, with nothing " +
      "published yet; the published diff prints its no-baseline notice",
    async () => {
      const p = await gitProject();
      try {
        p.git("update-ref", "refs/remotes/origin/main", "HEAD");
        p.git("checkout", "-q", "-b", "feature");
        await p.removeTool("start_skillpilot_memory_practice");
        const result = p.run(["--format", "github"]);
        assert.equal(result.code, 1, result.stderr);
        assert.match(
          result.stdout,
          /^::warning file=contracts\/published,title=DIFF_NO_BASELINE::/m,
        );
        assert.match(
          result.stdout,
          /^::error file=git%3A[0-9a-f]{40}%3Agenerated\/contract\.snapshot\.json.*title=TOOL_REMOVED::tool start_skillpilot_memory_practice /m,
        );
        const base = p.git("merge-base", "origin/main", "HEAD");
        assert.match(result.stderr, new RegExp(`diff --against git:${base}`));
        assert.match(result.stderr, new RegExp(`verify --since git:${base}`));
      } finally {
        await p.cleanup();
      }
    },
  );

  it("on main itself compares against the previous commit", async () => {
    const p = await gitProject();
    try {
      await p.removeTool("start_skillpilot_memory_practice");
      const result = p.run();
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /TOOL_REMOVED/);
      assert.match(result.stderr, new RegExp(`against git:${p.git("rev-parse", "HEAD~1")}`));
    } finally {
      await p.cleanup();
    }
  });

  it("judges the contract line's transition from the baseline commit (L11)", async () => {
    const p = await gitProject();
    try {
      const line = path.join(p.root, "release/line.json");
      const doc = JSON.parse(await readFile(line, "utf8")) as Record<string, unknown>;
      await writeFile(
        line,
        `${JSON.stringify({ ...doc, supportLifecycle: "DEPRECATED" }, null, 2)}\n`,
      );
      p.generate();
      p.git("commit", "-q", "-am", "deprecate");
      await writeFile(line, `${JSON.stringify({ ...doc, policyRevision: 2 }, null, 2)}\n`);
      p.generate();
      p.git("commit", "-q", "-am", "revive and lower");
      const result = p.run(["--format", "github"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stdout,
        /title=LINE_TRANSITION_FORBIDDEN::supportLifecycle DEPRECATED → CURRENT/,
      );
      assert.match(result.stdout, /title=LINE_REVISION_LOWERED::policyRevision 2 is below 3/);
    } finally {
      await p.cleanup();
    }
  });

  it("a compatible change passes without judging the package version between commits", async () => {
    const p = await gitProject();
    try {
      const source = path.join(p.root, "schemas/tools/get_skillpilot_learning_context.json");
      const tool = JSON.parse(await readFile(source, "utf8")) as Record<string, unknown>;
      tool.name = "get_skillpilot_learning_summary";
      tool.$id = String(tool.$id).replace(/get_skillpilot_learning_context$/, String(tool.name));
      await writeFile(
        path.join(p.root, "schemas/tools/get_skillpilot_learning_summary.json"),
        `${JSON.stringify(tool, null, 2)}\n`,
      );
      p.generate();
      p.git("add", "-A");
      p.git("commit", "-q", "-m", "add a tool (MINOR)");
      const result = p.run(["--format", "json"]);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.doesNotMatch(result.stdout, /VERSION_BUMP_TOO_LOW/);
    } finally {
      await p.cleanup();
    }
  });

  it(
    "a breaking commit pushed together with an unrelated one fails against the last green " +
      "gates run recorded as refs/skillpilot/gates-passed",
    async () => {
      const p = await gitProject();
      try {
        const green = p.run([], {}, true);
        assert.equal(green.code, 0, green.stderr);
        const recorded = p.git("rev-parse", "HEAD");
        assert.equal(p.git("rev-parse", "refs/skillpilot/gates-passed"), recorded);
        await p.removeTool("start_skillpilot_memory_practice");
        await p.unrelatedCommit();
        const result = p.run(["--format", "github"], {}, true);
        assert.equal(result.code, 1, result.stdout + result.stderr);
        assert.match(result.stdout, /title=TOOL_REMOVED::tool start_skillpilot_memory_practice/);
        assert.match(
          result.stderr,
          new RegExp(`git baseline ${recorded} — the last green gates run`),
        );
        // A red run does not move the record.
        assert.equal(p.git("rev-parse", "refs/skillpilot/gates-passed"), recorded);
      } finally {
        await p.cleanup();
      }
    },
  );

  it(
    "a fresh clone without the ref fails the same push against the push's previous head " +
      "(SKILLPILOT_GATES_BASELINE) or the committed landing record",
    async () => {
      const p = await gitProject();
      try {
        const landed = p.git("rev-parse", "HEAD");
        await writeFile(
          path.join(p.root, "contracts/gates-baseline.json"),
          `${JSON.stringify({ format: "skillpilot-gates-baseline/1", passed: [{ commit: landed, recordedAt: "2026-12-01" }] }, null, 2)}\n`,
        );
        await p.unrelatedCommit("record");
        await p.removeTool("start_skillpilot_memory_practice");
        await p.unrelatedCommit("after");
        const byEnv = p.run([], { SKILLPILOT_GATES_BASELINE: landed });
        assert.equal(byEnv.code, 1, byEnv.stderr);
        assert.match(byEnv.stdout, /TOOL_REMOVED/);
        assert.match(byEnv.stderr, /SKILLPILOT_GATES_BASELINE/);
        const byRecord = p.run(["--format", "json"]);
        assert.equal(byRecord.code, 1, byRecord.stderr);
        assert.match(
          byRecord.stderr,
          new RegExp(`git baseline ${landed} — the last recorded landing`),
        );
        // Against HEAD~1 alone the unrelated commit would have hidden the break.
        assert.match(
          byRecord.stderr,
          /diff --against git:\S+ --against git:\S+ --no-version-check/,
        );
      } finally {
        await p.cleanup();
      }
    },
  );

  it("without any git baseline (a single-commit clone) says so visibly and still exits 0", async () => {
    const p = await gitProject();
    try {
      const result = p.run(["--format", "markdown"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /DIFF_NO_BASELINE/);
      assert.match(result.stderr, /NOTICE: no git baseline/);
      assert.doesNotMatch(result.stderr, /--since/);
    } finally {
      await p.cleanup();
    }
  });
});

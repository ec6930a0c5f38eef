import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { git as gitIn, repoRoot, tempProject } from "../support/temp-project.js";

const snapshotFile = "generated/contract.snapshot.json";
const gate = path.join(repoRoot, "tools/ci-gates.sh");

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
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "contract");
  const removeTool = async (name: string) => {
    const abs = path.join(project.root, snapshotFile);
    const snapshot = JSON.parse(await readFile(abs, "utf8")) as { tools: { name: string }[] };
    snapshot.tools = snapshot.tools.filter((t) => t.name !== name);
    await writeFile(abs, `${JSON.stringify(snapshot, null, 2)}\n`);
    git("commit", "-q", "-am", `remove ${name}`);
  };
  const run = (...extra: string[]) => {
    const r = spawnSync("bash", [gate, project.root, "--", ...extra], { encoding: "utf8" });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { ...project, git, removeTool, run };
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
        const result = p.run("--format", "github");
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
      p.git("commit", "-q", "-am", "deprecate");
      await writeFile(line, `${JSON.stringify({ ...doc, policyRevision: 2 }, null, 2)}\n`);
      p.git("commit", "-q", "-am", "revive and lower");
      const result = p.run("--format", "github");
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
      const abs = path.join(p.root, snapshotFile);
      const snapshot = JSON.parse(await readFile(abs, "utf8")) as {
        tools: Record<string, unknown>[];
      };
      const copy = structuredClone(snapshot.tools[0]);
      copy.name = "get_skillpilot_learning_summary";
      snapshot.tools.push(copy);
      await writeFile(abs, `${JSON.stringify(snapshot, null, 2)}\n`);
      p.git("commit", "-q", "-am", "add a tool (MINOR)");
      const result = p.run("--format", "json");
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.doesNotMatch(result.stdout, /VERSION_BUMP_TOO_LOW/);
    } finally {
      await p.cleanup();
    }
  });

  it("without any git baseline (a single-commit clone) says so visibly and still exits 0", async () => {
    const p = await gitProject();
    try {
      const result = p.run("--format", "markdown");
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /DIFF_NO_BASELINE/);
      assert.match(result.stderr, /NOTICE: no git baseline/);
      assert.doesNotMatch(result.stderr, /--since/);
    } finally {
      await p.cleanup();
    }
  });
});

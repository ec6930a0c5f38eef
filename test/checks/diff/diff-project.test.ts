import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot, tempProject } from "../../support/temp-project.js";
import type { Wire } from "../../support/wire.js";

const run = promisify(execFile);
const cli = path.join(repoRoot, "bin/skillpilot.ts");
const tsx = path.join(repoRoot, "node_modules/.bin/tsx");

async function skillpilot(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, [cli, ...args], { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

// A whole project (schemas, generator output and what the diff reads beside them).
const projectFiles = [
  "schemas",
  "generated",
  "release/line.json",
  "release/first-party-allowlist.json",
  "contracts/ui",
  "contracts/ui-activations.json",
  "curricula",
  "skills",
];

/** Record the project's current snapshot as a published version (as record-published would). */
async function publishAs(root: string, version: string): Promise<void> {
  const snapshot = JSON.parse(
    await readFile(path.join(root, "generated/contract.snapshot.json"), "utf8"),
  );
  snapshot.plugin.packageVersion = version;
  const dir = path.join(root, "contracts/published/openai/skillpilot-coach", version);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "contract.snapshot.json"), JSON.stringify(snapshot, null, 2));
}

async function editTool(root: string, tool: string, edit: (doc: Wire) => void) {
  const file = path.join(root, "schemas/tools", `${tool}.json`);
  const doc = JSON.parse(await readFile(file, "utf8"));
  edit(doc);
  await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
}

describe("skillpilot diff on the project's own contract (L12.2)", function () {
  this.timeout(180_000);

  it("refuses in one line, exit 2, to judge a snapshot that is stale against schemas/", async () => {
    const project = await tempProject(repoRoot, projectFiles);
    try {
      await publishAs(project.root, "1.1.2");
      await editTool(project.root, "complete_skillpilot_goal", (d) => {
        d.input.properties.decision.enum = ["achieved"];
      });
      // generate was not run: the snapshot still says the old contract is compatible.
      const out = await skillpilot(["-C", project.root, "diff"]);
      assert.equal(out.code, 2);
      assert.doesNotMatch(out.stdout, /verdict: compatible/);
      const lines = out.stderr.trim().split("\n");
      assert.match(lines[0], /DIFF_SNAPSHOT_STALE/);
      assert.match(lines[0], /schemas\/tools\/complete_skillpilot_goal\.json/);
      assert.match(lines[0], /skillpilot generate/);
      const json = await skillpilot(["-C", project.root, "diff", "--format", "json"]);
      assert.equal(json.code, 2);
      assert.deepEqual(
        JSON.parse(json.stdout).diagnostics.map((d: { ruleId: string }) => d.ruleId),
        ["DIFF_SNAPSHOT_STALE"],
      );
    } finally {
      await project.cleanup();
    }
  });

  it(
    "points a finding at the schema file, line and column that was edited, and the version " +
      "bump at schemas/plugin.json",
    async () => {
      const project = await tempProject(repoRoot, projectFiles);
      try {
        await publishAs(project.root, "1.1.2");
        await editTool(project.root, "complete_skillpilot_goal", (d) => {
          d.input.properties.decision.enum = ["achieved"];
        });
        assert.equal((await skillpilot(["-C", project.root, "generate"])).code, 0);
        const out = await skillpilot(["-C", project.root, "diff", "--format", "json"]);
        assert.equal(out.code, 1);
        const result = JSON.parse(out.stdout);
        const enumFinding = result.findings.find(
          (f: { ruleId: string }) => f.ruleId === "INPUT_ENUM_NARROWED",
        );
        assert.equal(enumFinding.location.file, "schemas/tools/complete_skillpilot_goal.json");
        assert.equal(enumFinding.location.pointer, "/input/properties/decision");
        const text = await readFile(
          path.join(project.root, "schemas/tools/complete_skillpilot_goal.json"),
          "utf8",
        );
        const line = text.split("\n")[enumFinding.location.line - 1];
        assert.match(line.slice(enumFinding.location.column - 1), /^"decision"/);
        const bump = result.problems.find(
          (p: { ruleId: string }) => p.ruleId === "VERSION_BUMP_TOO_LOW",
        );
        assert.equal(bump.location.file, "schemas/plugin.json");
        assert.equal(bump.location.pointer, "/packageVersion");
      } finally {
        await project.cleanup();
      }
    },
  );

  it(
    "reports a break found against several published versions once, naming each, with one " +
      "GitHub annotation and one fingerprint",
    async () => {
      const project = await tempProject(repoRoot, projectFiles);
      try {
        await publishAs(project.root, "1.1.1");
        await publishAs(project.root, "1.1.2");
        await editTool(project.root, "complete_skillpilot_goal", (d) => {
          d.input.properties.decision.enum = ["achieved"];
        });
        assert.equal((await skillpilot(["-C", project.root, "generate"])).code, 0);
        const json = JSON.parse(
          (await skillpilot(["-C", project.root, "diff", "--format", "json"])).stdout,
        );
        const enumFindings = json.findings.filter(
          (f: { ruleId: string }) => f.ruleId === "INPUT_ENUM_NARROWED",
        );
        assert.equal(enumFindings.length, 1);
        assert.deepEqual(
          enumFindings[0].baselines.map((b: string) => b.split("/").at(-2)),
          ["1.1.1", "1.1.2"],
        );
        assert.equal(json.comparisons.length, 2);
        assert.ok(json.comparisons.every((c: { breaking: boolean }) => c.breaking));
        const github = await skillpilot(["-C", project.root, "diff", "--format", "github"]);
        const annotations = github.stdout
          .split("\n")
          .filter((l) => l.startsWith("::error") && l.includes("INPUT_ENUM_NARROWED"));
        assert.equal(annotations.length, 1, github.stdout);
        assert.match(annotations[0], /against 1\.1\.1, 1\.1\.2/);
      } finally {
        await project.cleanup();
      }
    },
  );

  it("reads a schemars-style document with unknown formats without a word on stderr", async () => {
    const dir = path.join(repoRoot, "test/fixtures/diff-corpus/guard-schemars-uint-format");
    const out = await skillpilot([
      "diff",
      path.join(dir, "old.json"),
      path.join(dir, "new.json"),
      "--format",
      "json",
    ]);
    assert.equal(out.code, 0);
    assert.equal(out.stderr, "");
    const notes = JSON.parse(out.stdout).problems.filter(
      (p: { ruleId: string }) => p.ruleId === "DIFF_FORMAT_UNKNOWN",
    );
    assert.deepEqual(
      notes.map((n: { message: string; severity: string }) => [n.severity, n.message]),
      [
        [
          "note",
          'format "uint" is not one the diff knows; values in it are checked as plain strings',
        ],
        [
          "note",
          'format "uint32" is not one the diff knows; values in it are checked as plain strings',
        ],
      ],
    );
  });
});

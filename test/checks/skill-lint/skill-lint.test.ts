import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { readDoc } from "../../../checks/diff/baselines.js";
import type { ContractDoc } from "../../../contract-model/contract-doc.js";
import { skillLint } from "../../../checks/skill-lint/skill-lint.js";
import { skillToolRefs } from "../../../checks/skill-lint/skill-refs.js";
import { repoRoot } from "../../support/temp-project.js";

const run = promisify(execFile);
let contract: ContractDoc;
let scratch: string;

async function skillDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, "skills-"));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}
const ok =
  "---\nname: demo\ndescription: A demo skill.\ntools:\n  - " +
  "get_skillpilot_learning_context\n---\n# Demo\nCall " +
  "`get_skillpilot_learning_context` once.\n";

describe("skillpilot skill-lint: Skill-Contract-Lint (L7, L12.3)", function () {
  // Spawns the CLI (tsx start-up) or runs property tests: allow for a loaded CI machine.
  this.timeout(120_000);
  before(async () => {
    contract = (await readDoc(repoRoot, "generated/contract.snapshot.json", []))!;
    scratch = await mkdtemp(path.join(tmpdir(), "skill-lint-"));
  });
  after(() => rm(scratch, { recursive: true, force: true }));

  it(
    "passes the shipped skillpilot-coach skill, which names every model-visible " + "tool (L7)",
    async () => {
      const { diagnostics, tree } = await skillLint(
        path.join(repoRoot, "skills"),
        "skills",
        contract,
      );
      assert.deepEqual(diagnostics, []);
      assert.match(tree!.manifest, /^[0-9a-f]{64} {2}skillpilot-coach\/SKILL\.md\n/m);
      const named = new Set(
        skillToolRefs(
          await readFile(path.join(repoRoot, "skills/skillpilot-coach/SKILL.md"), "utf8"),
          "SKILL.md",
        )
          .refs.filter((r) => r.from === "front-matter")
          .map((r) => r.name),
      );
      const visible = [...contract.tools.values()]
        .filter((t) => JSON.stringify(t.visibility) !== JSON.stringify(["app"]))
        .map((t) => t.name);
      assert.deepEqual([...named].sort(), visible.sort());
    },
  );

  it("reports an unknown tool named in backticks with file:line:col (L7)", async () => {
    const dir = await skillDir({
      "demo/SKILL.md": `${ok}\nThen use \`get_skillpilot_learning_contexts\`.\n`,
    });
    const { diagnostics } = await skillLint(dir, "skills", contract);
    assert.deepEqual(
      diagnostics.map((d) => [d.ruleId, d.location.file, d.location.line, d.location.column]),
      [["SKILL_UNKNOWN_TOOL", "skills/demo/SKILL.md", 10, 11]],
    );
  });

  it("SKILL_TOOL_SUPERSEDED warns on a superseded tool (naming its replacement); the same tool once removed is SKILL_UNKNOWN_TOOL, an error", async () => {
    const dir = await skillDir({
      "demo/SKILL.md": `${ok}\nRecord the decision with \`complete_skillpilot_goal\`.\n`,
    });
    const renamed = {
      ...contract,
      tools: new Map(
        [...contract.tools].map(([name, tool]) => [
          name,
          name === "complete_skillpilot_goal"
            ? { ...tool, supersededBy: "complete_skillpilot_active_goal" }
            : tool,
        ]),
      ),
    } as ContractDoc;
    const warned = await skillLint(dir, "skills", renamed);
    assert.deepEqual(
      warned.diagnostics.map((d) => [d.ruleId, d.severity, d.location.line]),
      [["SKILL_TOOL_SUPERSEDED", "warning", 10]],
    );
    assert.match(warned.diagnostics[0].message, /name complete_skillpilot_active_goal instead/);
    const removed = { ...renamed, tools: new Map(renamed.tools) } as ContractDoc;
    removed.tools.delete("complete_skillpilot_goal");
    const failed = await skillLint(dir, "skills", removed);
    assert.deepEqual(
      failed.diagnostics.map((d) => [d.ruleId, d.severity]),
      [["SKILL_UNKNOWN_TOOL", "error"]],
    );
  });

  it("reports an unknown or app-only tool in the front matter at its line (L7, L9)", async () => {
    const dir = await skillDir({
      "demo/SKILL.md": ok.replace(
        "tools:\n",
        "tools:\n  - review_skillpilot_memory_practice_card\n  - delete_everything\n",
      ),
    });
    const { diagnostics } = await skillLint(dir, "skills", contract);
    assert.deepEqual(
      diagnostics.map((d) => [d.ruleId, d.location.line]),
      [
        ["SKILL_TOOL_NOT_MODEL_VISIBLE", 5],
        ["SKILL_UNKNOWN_TOOL", 6],
      ],
    );
  });

  it(
    "ignores fenced examples, camelCase fields and error codes; requires front " + "matter",
    async () => {
      const dir = await skillDir({
        "a/SKILL.md": `${ok}\`\`\`\n\`not_a_tool_here\`\n\`\`\`\n\`learningSessionId\` \`STATE_CONFLICT\`\n`,
        "b/SKILL.md": "# No front matter\n",
      });
      const { diagnostics } = await skillLint(dir, "skills", contract);
      assert.deepEqual(
        diagnostics.map((d) => [d.ruleId, d.location.file]),
        [["SKILL_FRONT_MATTER_INVALID", "skills/b/SKILL.md"]],
      );
    },
  );

  it(
    "hashes the tree reproducibly whatever mtimes and permissions say, and " +
      "checks an expected hash (L5, L7)",
    async () => {
      const files = { "demo/SKILL.md": ok, "demo/notes/extra.md": "extra\n" };
      const a = await skillDir(files);
      const b = await skillDir(files);
      await utimes(path.join(b, "demo/SKILL.md"), new Date("2001-01-01"), new Date("2001-01-01"));
      await chmod(path.join(b, "demo/notes/extra.md"), 0o600);
      const ha = (await skillLint(a, "skills", contract)).tree!.sha256;
      assert.equal((await skillLint(b, "skills", contract)).tree!.sha256, ha);
      assert.deepEqual((await skillLint(a, "skills", contract, ha)).diagnostics, []);
      await writeFile(path.join(b, "demo/notes/extra.md"), "changed\n");
      assert.deepEqual(
        (await skillLint(b, "skills", contract, ha)).diagnostics.map((d) => d.ruleId),
        ["SKILL_TREE_HASH_MISMATCH"],
      );
    },
  );

  it("refuses a symlink in the skills tree (L5)", async () => {
    const dir = await skillDir({ "demo/SKILL.md": ok });
    await symlink(path.join(dir, "demo/SKILL.md"), path.join(dir, "demo/link.md"));
    assert.deepEqual(
      (await skillLint(dir, "skills", contract)).diagnostics.map((d) => d.ruleId),
      ["SKILL_TREE_INVALID"],
    );
  });

  it("CLI: exits 0 on the project, 1 on a bad skill tree, and prints the manifest", async () => {
    const cli = (args: string[]) =>
      run(
        path.join(repoRoot, "node_modules/.bin/tsx"),
        [path.join(repoRoot, "bin/skillpilot.ts"), ...args],
        { cwd: repoRoot },
      ).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => e,
      );
    const good = await cli(["skill-lint", "--manifest"]);
    assert.equal(good.code, 0);
    assert.match(good.stdout, /^[0-9a-f]{64} {2}skillpilot-coach\/SKILL\.md$/m);
    const bad = await cli([
      "skill-lint",
      "--skills",
      await skillDir({ "x/SKILL.md": `${ok}\`start_skillpilot_exam\`\n` }),
      "--format",
      "github",
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /::error file=.*x\/SKILL\.md,line=9,col=2,title=SKILL_UNKNOWN_TOOL::/);
  });
});

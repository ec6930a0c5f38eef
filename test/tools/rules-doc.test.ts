import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Rule } from "../../diagnostics/rule.js";
import { importsOf } from "../../tools/import-direction.js";
import { main, renderRulesDoc } from "../../tools/rules-doc.js";
import { repoRoot } from "../support/temp-project.js";

describe("docs/rules.md from the rule table (issue #11, 4c)", () => {
  it("loads every module that declares rules through the explicit index", () => {
    const files = execFileSync(
      "git",
      ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts"],
      { cwd: repoRoot, encoding: "utf8" },
    )
      .split("\n")
      .filter((f) => f && !/^(test|diagnostics|node_modules)\//.test(f));
    const declaring = files
      .filter((f) => readFileSync(path.join(repoRoot, f), "utf8").includes("defineRule("))
      .map((f) => f.replace(/\.ts$/, ".js"))
      .sort();
    const index = "tools/rule-index.ts";
    const listed = importsOf(index, readFileSync(path.join(repoRoot, index), "utf8"))
      .map((e) => e.target)
      .sort();
    assert.ok(declaring.length > 40, declaring.join(" "));
    assert.deepEqual(listed, declaring);
  });

  it("fails the check with a clear message when the file drifts, passes once regenerated", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "rules-doc-"));
    try {
      await mkdir(path.join(root, "docs"));
      const log: string[] = [];
      const say = (line: string) => log.push(line);
      assert.equal(await main(["--check"], root, say), 1);
      assert.match(log.pop()!, /docs\/rules\.md is missing; run `npm run rules:doc`/);
      await writeFile(path.join(root, "docs/rules.md"), "# Rule reference\n\nhand-edited\n");
      assert.equal(await main(["--check"], root, say), 1);
      assert.match(
        log.pop()!,
        /docs\/rules\.md is out of date with the rule table \(first difference at line 3\); run `npm run rules:doc`/,
      );
      assert.equal(await main([], root, say), 0);
      assert.equal(await main(["--check"], root, say), 0);
      assert.match(await readFile(path.join(root, "docs/rules.md"), "utf8"), /INPUT_NOT_CLOSED/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("renders one anchored row per rule, grouped by family, with cells escaped", () => {
    const rule = (over: Partial<Rule>): Rule => ({
      id: "X",
      family: "lint",
      severity: "error",
      summary: "s",
      message: "m",
      docs: "docs/rules.md#x",
      ...over,
    });
    const doc = renderRulesDoc([
      rule({ id: "A_RULE", summary: "a | b for ui/<name>/", message: "run `x` | {y}" }),
      rule({
        id: "B_RULE",
        family: "diff",
        bump: "major",
        waivable: false,
        pinning: "behavioural",
        message: { a: "1", b: "2" },
      }),
      rule({ id: "C_RULE", family: "diff" }),
    ]);
    assert.match(doc, /generated from the rule table by `npm run rules:doc`/i);
    assert.ok(
      doc.includes(
        '| <a id="a_rule"></a>`A_RULE` | error | a \\| b for ui/&lt;name>/ | `` run `x` \\| {y} `` |',
      ),
    );
    assert.ok(
      doc.includes(
        '| <a id="b_rule"></a>`B_RULE` | major | error | no | behavioural | s | `1`<br>`2` |',
      ),
    );
    assert.ok(doc.includes('| <a id="c_rule"></a>`C_RULE` | error | s | `m` |'));
    const order = ["## Gate lint", "A_RULE", "## Contract-Diff", "B_RULE", "C_RULE", "## Release"];
    const at = order.map((s) => doc.indexOf(s));
    assert.deepEqual(
      [...at].sort((a, b) => a - b),
      at,
    );
  });
});

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Rule, registeredRules, ruleFamilies } from "../../diagnostics/rule.js";
import "../../tools/rule-index.js";
import { repoRoot } from "../support/temp-project.js";

/** The rule modules of the tree (tracked or new), repository-relative. */
const ruleFiles = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "*.rule.ts"],
  { cwd: repoRoot, encoding: "utf8" },
)
  .split("\n")
  .filter((f) => f && !/^(test|node_modules)\//.test(f))
  .sort();

/** The test that proves the rules of `file`: its mirror under test/, named after the rule. */
const proofOf = (file: string) => path.join("test", file.replace(/\.rule\.ts$/, ".rule.test.ts"));

/** A rule as `defineRule` returns it (by shape: a module may load its own copy of the table). */
const isRule = (v: unknown): v is Rule =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as Rule).id === "string" &&
  ruleFamilies.includes((v as Rule).family) &&
  typeof (v as Rule).summary === "string" &&
  typeof (v as Rule).docs === "string";

/**
 * The ids of the rules a module declares, from what it exports: rules themselves, a check bound to
 * one rule (`{ rule }`: generator, gate lint, directory and trace rules) or a group of change rules
 * (`{ rules }`: Contract-Diff), or a list of such checks, each declared in the module's own text (a
 * group may check a rule of another module).
 */
function declaredIds(exports: Record<string, unknown>, source: string): string[] {
  const ids = new Set<string>();
  for (const value of Object.values(exports).flatMap((v) => (Array.isArray(v) ? v : [v]))) {
    if (isRule(value)) ids.add(value.id);
    if (typeof value !== "object" || value === null) continue;
    const { rule, rules } = value as { rule?: unknown; rules?: unknown };
    if (isRule(rule)) ids.add(rule.id);
    if (Array.isArray(rules)) for (const r of rules) if (isRule(r)) ids.add(r.id);
  }
  return [...ids].filter((id) => new RegExp(`\\bid:\\s*"${id}"`).test(source)).sort();
}

const mentions = (text: string, id: string) => new RegExp(`\\b${id}\\b`).test(text);

describe("every rule's proof is findable by its id: test/<path>/<name>.rule.test.ts", () => {
  const declared = new Map<string, string[]>();
  before(async () => {
    for (const file of ruleFiles) {
      const exports = (await import(pathToFileURL(path.join(repoRoot, file)).href)) as Record<
        string,
        unknown
      >;
      declared.set(file, declaredIds(exports, readFileSync(path.join(repoRoot, file), "utf8")));
    }
  });

  it("finds the rule modules and every rule each declares", () => {
    assert.ok(ruleFiles.length >= 40, ruleFiles.join(" "));
    const hidden: string[] = [];
    for (const file of ruleFiles) {
      const ids = declared.get(file)!;
      // A rule declared but not exported would escape the check below.
      const calls = readFileSync(path.join(repoRoot, file), "utf8").match(/\bdefineRule\(/g);
      if (ids.length === 0 || ids.length !== (calls?.length ?? 0))
        hidden.push(`${file}: ${calls?.length ?? 0} defineRule calls, exported ${ids.join(", ")}`);
    }
    assert.deepEqual(hidden, []);
  });

  it("has a test named after each rule module that names each of its rule ids", () => {
    const missing: string[] = [];
    for (const file of ruleFiles) {
      const proof = proofOf(file);
      const full = path.join(repoRoot, proof);
      if (!existsSync(full)) {
        missing.push(`${declared.get(file)!.join(", ")}: no ${proof} (rules of ${file})`);
        continue;
      }
      const text = readFileSync(full, "utf8");
      for (const id of declared.get(file)!)
        if (!mentions(text, id)) missing.push(`${id}: not named in ${proof} (rule of ${file})`);
    }
    assert.deepEqual(missing, []);
  });

  it("names each registered rule id (every row of docs/rules.md) in a test file under test/ besides this one", () => {
    // The registry tools/rules-doc.ts renders: the *.rule.ts rules above and those declared
    // elsewhere (loaders, build-model, release checks), all loaded through tools/rule-index.ts.
    // Rules the suite's own tests define (in the same process) are not the project's.
    const sources = execFileSync("git", ["ls-files", "*.ts", ":!test/**"], {
      cwd: repoRoot,
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean)
      .map((f) => readFileSync(path.join(repoRoot, f), "utf8"))
      .join("\n");
    const registered = registeredRules()
      .map((r) => r.id)
      .filter((id) => new RegExp(`\\bid:\\s*"${id}"`).test(sources));
    const documented = [
      ...readFileSync(path.join(repoRoot, "docs/rules.md"), "utf8").matchAll(/<\/a>`(\w+)`/g),
    ].map((m) => m[1]);
    assert.deepEqual([...registered].sort(), documented.sort(), "the registry is docs/rules.md");
    assert.deepEqual(
      [...declared.values()].flat().filter((id) => !registered.includes(id)),
      [],
      "a *.rule.ts rule missing from the registry",
    );
    const tests = execFileSync(
      "git",
      ["ls-files", "--cached", "--others", "--exclude-standard", "test/*.test.ts"],
      { cwd: repoRoot, encoding: "utf8" },
    )
      .split("\n")
      .filter(
        (f) => f && f !== "test/tools/rule-proofs.test.ts" && existsSync(path.join(repoRoot, f)),
      )
      .map((f) => readFileSync(path.join(repoRoot, f), "utf8"));
    const unproven = registered.filter((id) => !tests.some((text) => mentions(text, id)));
    assert.deepEqual(unproven, []);
  });
});

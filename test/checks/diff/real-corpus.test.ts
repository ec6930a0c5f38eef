import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { diffContracts } from "../../../checks/diff/contract-diff.js";
import { assertWitnessesProven, loadSide } from "./support/corpus-case.js";

// Real tools/list changes from public MCP servers' git histories, each with a verdict written by
// hand before the diff ever ran on it. The material comes from third-party repositories, so it is
// kept outside this repository (docs/contract-diff.md#real-change-corpora): the test runs on every
// corpus folder named by SKILLPILOT_DIFF_CORPORA (paths separated by ":") or found at
// ../shared/corpora/diff-real-changes*, and says so when there is none.
const corpora = (
  process.env.SKILLPILOT_DIFF_CORPORA?.split(":").filter(Boolean) ??
  (existsSync(path.resolve("../shared/corpora"))
    ? readdirSync(path.resolve("../shared/corpora"))
        .filter((d) => d.startsWith("diff-real-changes"))
        .map((d) => path.resolve("../shared/corpora", d))
    : [])
).filter((dir) => existsSync(dir));
const cases = corpora.flatMap((dir) =>
  readdirSync(dir)
    .filter((d) => statSync(path.join(dir, d)).isDirectory())
    .sort()
    .map((name) => ({ dir, name })),
);

interface Expected {
  source: { repo: string; commit: string; parent: string; files: string[] };
  verdict: "breaking" | "compatible";
  requiredBump: "none" | "patch" | "minor" | "major";
  reason: string;
}
const expectedOf = (dir: string, name: string) =>
  JSON.parse(readFileSync(path.join(dir, name, "expected.json"), "utf8")) as Expected;

describe("Contract-Diff on real servers' changes (L6, L12.2)", () => {
  if (cases.length === 0) {
    it("has no real-change corpus on this machine (set SKILLPILOT_DIFF_CORPORA)", function () {
      this.skip();
    });
    return;
  }

  it("holds at least 50 real changes from at least three servers, each naming its commit", () => {
    assert.ok(cases.length >= 50, `only ${cases.length} cases`);
    const repos = new Set(cases.map((c) => expectedOf(c.dir, c.name).source.repo));
    assert.ok(repos.size >= 3, [...repos].join(", "));
    for (const c of cases) {
      const { source, reason } = expectedOf(c.dir, c.name);
      assert.match(source.commit, /^[0-9a-f]{40}$/, c.name);
      assert.match(source.parent, /^[0-9a-f]{40}$/, c.name);
      assert.ok(reason.length > 0, c.name);
    }
  });

  for (const { dir, name } of cases) {
    const expected = expectedOf(dir, name);
    it(`${name}: ${expected.verdict}, ${expected.requiredBump} — ${expected.reason}`, () => {
      const oldSide = loadSide(path.join(dir, name, "old.json"));
      const newSide = loadSide(path.join(dir, name, "new.json"));
      const result = diffContracts([oldSide.doc], newSide.doc, {
        waivers: [],
        now: new Date("2026-12-01T00:00:00Z"),
      });
      const found = result.findings.map((f) => `${f.bump} ${f.ruleId}: ${f.message}`).join("\n");
      assert.equal(result.breaking ? "breaking" : "compatible", expected.verdict, found);
      assert.equal(result.requiredBump, expected.requiredBump, found);
      assertWitnessesProven(result, oldSide, newSide);
    });
  }
});

import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { diffContracts } from "../../../checks/diff/contract-diff.js";
import { assertWitnessesProven, loadSide } from "./support/corpus-case.js";

// Real tools/list changes from public MCP servers' git histories; the verdicts were written by
// hand before the diff ever ran on them (test/fixtures/diff-real-corpus/README.md).
const corpus = path.resolve("test/fixtures/diff-real-corpus");
const cases = readdirSync(corpus)
  .filter((d) => statSync(path.join(corpus, d)).isDirectory())
  .sort();

interface Expected {
  source: { repo: string; commit: string; parent: string; files: string[] };
  verdict: "breaking" | "compatible";
  requiredBump: "none" | "patch" | "minor" | "major";
  reason: string;
}
const expectedOf = (name: string) =>
  JSON.parse(readFileSync(path.join(corpus, name, "expected.json"), "utf8")) as Expected;

describe("Contract-Diff on real servers' changes (L6, L12.2)", () => {
  it("holds at least 50 real changes from at least three servers, each naming its commit", () => {
    assert.ok(cases.length >= 50, `only ${cases.length} cases`);
    const repos = new Set(cases.map((c) => expectedOf(c).source.repo));
    assert.ok(repos.size >= 3, [...repos].join(", "));
    for (const c of cases) {
      const { source, reason } = expectedOf(c);
      assert.match(source.commit, /^[0-9a-f]{40}$/, c);
      assert.match(source.parent, /^[0-9a-f]{40}$/, c);
      assert.ok(reason.length > 0, c);
    }
  });

  for (const name of cases) {
    const expected = expectedOf(name);
    it(`${name}: ${expected.verdict}, ${expected.requiredBump} — ${expected.reason}`, () => {
      const oldSide = loadSide(path.join(corpus, name, "old.json"));
      const newSide = loadSide(path.join(corpus, name, "new.json"));
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

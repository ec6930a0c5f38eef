import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Bump } from "../../../diagnostics/rule.js";
import { diffContracts } from "../../../checks/diff/contract-diff.js";
import { assertWitnessesProven, loadSide } from "./support/corpus-case.js";

// Real tools/list changes from public MCP servers' git histories, each with a verdict written by
// hand before the diff ever ran on it. The material belongs to the servers' authors, so it lives
// beside the project, at ../shared/corpora/diff-real-changes from the project root
// (docs/contract-diff.md#real-change-corpora), never inside it. Every case is one test. Under CI a
// missing corpus fails the run; elsewhere the suite says it skipped and why.
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const corpus = path.resolve(projectRoot, "../shared/corpora/diff-real-changes");
const cases = existsSync(corpus)
  ? readdirSync(corpus)
      .filter((d) => statSync(path.join(corpus, d)).isDirectory())
      .sort()
  : [];

/** A case's `expect.json` (format: the corpus README). */
interface Expect {
  /** `null`: genuinely ambiguous, either verdict accepted. */
  breaking: boolean | null;
  /** Every `requiredBump` the case accepts. */
  bump: Bump[];
  why: string;
  /** `owner/repo@parent..commit folder (tools)`. */
  source: string;
}
const expectOf = (name: string) =>
  JSON.parse(readFileSync(path.join(corpus, name, "expect.json"), "utf8")) as Expect;

/**
 * Cases whose written expectation the diff does not share, each with the named reason the
 * expectation is mistaken (the corpus is read-only shared data; its `expect.json` is never edited).
 * The test asserts the diff's own verdict for these instead, so a change of it is still caught.
 */
const knownDisagreements: Record<string, { breaking: boolean; bump: Bump; reason: string }> = {};

describe("Contract-Diff on real servers' changes (L6, L12.2)", () => {
  if (cases.length === 0) {
    const notice = `no real-change corpus at ${corpus}, so no real change was compared`;
    if (process.env.CI) {
      it("finds the real-change corpus (required under CI)", () => {
        assert.fail(notice);
      });
    } else {
      console.log(`  notice: ${notice} (a failure under CI)`);
      it("runs the real-change corpus when it is present beside the project", function () {
        this.skip();
      });
    }
    return;
  }

  it("holds at least 50 real changes from at least two servers, each naming its commit", () => {
    assert.ok(cases.length >= 50, `only ${cases.length} cases`);
    const repos = new Set(cases.map((c) => expectOf(c).source.split("@")[0]));
    assert.ok(repos.size >= 2, [...repos].join(", "));
    for (const c of cases) {
      const e = expectOf(c);
      assert.match(e.source, /^[\w.-]+\/[\w.-]+@[0-9a-f]{7,40}\.\.[0-9a-f]{7,40} /, c);
      assert.ok(e.why.length > 0 && e.bump.length > 0, c);
    }
  });

  it("lists no known disagreement for a case that is not in the corpus", () => {
    assert.deepEqual(
      Object.keys(knownDisagreements).filter((c) => !cases.includes(c)),
      [],
    );
  });

  for (const name of cases) {
    const expected = expectOf(name);
    const known = knownDisagreements[name];
    const verdict =
      expected.breaking === null ? "either" : expected.breaking ? "breaking" : "compatible";
    it(`${name}: ${verdict}, ${expected.bump.join("/")} — ${expected.why}`, () => {
      const oldSide = loadSide(path.join(corpus, name, "old.json"));
      const newSide = loadSide(path.join(corpus, name, "new.json"));
      const result = diffContracts([oldSide.doc], newSide.doc, {
        waivers: [],
        now: new Date("2026-12-01T00:00:00Z"),
      });
      const found = result.findings.map((f) => `${f.bump} ${f.ruleId}: ${f.message}`).join("\n");
      if (known) {
        assert.equal(result.breaking, known.breaking, `${known.reason}\n${found}`);
        assert.equal(result.requiredBump, known.bump, `${known.reason}\n${found}`);
      } else {
        if (expected.breaking !== null) assert.equal(result.breaking, expected.breaking, found);
        assert.ok(
          expected.bump.includes(result.requiredBump),
          `requiredBump ${result.requiredBump}, expected one of ${expected.bump.join(", ")}\n${found}`,
        );
      }
      assertWitnessesProven(result, oldSide, newSide);
    });
  }
});

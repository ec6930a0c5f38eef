import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { diffContracts, diffFailed } from "../../../checks/diff/contract-diff.js";
import { diffChecks } from "../../../checks/diff/rules/index.js";
import { assertWitnessesProven, loadSide } from "./support/corpus-case.js";

const corpus = path.resolve("test/fixtures/diff-corpus");
const cases = readdirSync(corpus)
  .filter((d) => statSync(path.join(corpus, d)).isDirectory())
  .sort();

interface Expected {
  description: string;
  verdict: "breaking" | "compatible";
  requiredBump: string;
  rules: string[];
  exitCode: number;
  problems: string[];
  /**
   * Optional exact wording per rule id: checks that a finding reads from the right side's point of
   * view.
   */
  messages?: Record<string, string>;
}

describe("Contract-Diff corpus (L6, L12.2)", () => {
  it("checks the wording of input and output findings on corpus cases (L12.2)", () => {
    const worded = cases.flatMap((c) =>
      Object.keys(
        (JSON.parse(readFileSync(path.join(corpus, c, "expected.json"), "utf8")) as Expected)
          .messages ?? {},
      ),
    );
    assert.ok(
      worded.some((id) => id.startsWith("INPUT_")) && worded.some((id) => id.startsWith("OUTPUT_")),
      worded.join(", "),
    );
  });

  it(
    "holds at least 40 before/after pairs, each with an expected verdict and " +
      "bump, covering every diff rule",
    () => {
      assert.ok(cases.length >= 40, `only ${cases.length} cases`);
      const covered = new Set(
        cases.flatMap(
          (c) =>
            (JSON.parse(readFileSync(path.join(corpus, c, "expected.json"), "utf8")) as Expected)
              .rules,
        ),
      );
      const all = diffChecks.flatMap((c) => c.rules.map((r) => r.id));
      assert.deepEqual(
        all.filter((id) => !covered.has(id)),
        [],
      );
    },
  );

  for (const name of cases) {
    const expected = JSON.parse(
      readFileSync(path.join(corpus, name, "expected.json"), "utf8"),
    ) as Expected;
    it(
      `${name}: ${expected.description} → ${expected.verdict}, ` +
        `${expected.requiredBump} (L6, L12.2)`,
      () => {
        const oldSide = loadSide(path.join(corpus, name, "old.json"));
        const newSide = loadSide(path.join(corpus, name, "new.json"));
        // A development baseline's tools whose every release is retired (the project's records).
        const freed = path.join(corpus, name, "freed-tools.json");
        if (existsSync(freed))
          oldSide.doc.freedTools = new Set(JSON.parse(readFileSync(freed, "utf8")) as string[]);
        const result = diffContracts([oldSide.doc], newSide.doc, {
          waivers: [],
          now: new Date("2026-06-01T00:00:00Z"),
        });
        assert.deepEqual([...new Set(result.findings.map((f) => f.ruleId))].sort(), expected.rules);
        assert.equal(result.requiredBump, expected.requiredBump);
        assert.equal(result.breaking ? "breaking" : "compatible", expected.verdict);
        assert.deepEqual(
          result.problems.map((p) => p.ruleId),
          expected.problems,
        );
        assert.equal(diffFailed(result) ? 1 : 0, expected.exitCode);
        for (const [ruleId, message] of Object.entries(expected.messages ?? {}))
          assert.deepEqual(
            result.findings.filter((f) => f.ruleId === ruleId).map((f) => f.message),
            [message],
            `${ruleId} wording`,
          );
        // Results are judged by old clients: an output finding never speaks of what the new schema
        // "accepts".
        for (const f of result.findings.filter(
          (x) => x.ruleId.startsWith("OUTPUT_") || x.ruleId === "ENVELOPE_WIDENED",
        ))
          assert.doesNotMatch(
            f.message,
            /no longer accepted|became required|the new schema (accepts|pins)/,
            `${f.ruleId} is worded as an input`,
          );
        assertWitnessesProven(result, oldSide, newSide);
      },
    );
  }
});

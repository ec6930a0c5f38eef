import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { knownKeywords } from "../../../../json-schema/keywords.js";
import {
  buildCase,
  coverageMap,
  rulesOutsideToolEdits,
} from "../../../../checks/diff/coverage/coverage-map.js";
import {
  coverageLine,
  coverageMarkdown,
  type CoverageReport,
  coverageReport,
} from "../../../../checks/diff/coverage/coverage-report.js";
import {
  diffListings,
  ruleBumps,
  witnessProblem,
} from "../../../../checks/diff/coverage/demonstrate.js";
import { reasonOf } from "../../../../checks/diff/coverage/judgement.js";
import { toolModel } from "../../../../checks/diff/coverage/tool-model.js";

// The build-failing consistency of the edit-space coverage map (docs/contract-diff.md#edit-space-
// coverage): every edit of the Tool model is judged by the map, every rule the map names exists,
// every diff rule is named or placed outside the Tool object, and every edit is demonstrated on
// its generated case (the real diff reports the named rule with its bump, and an independent Ajv
// proves the witness).
describe("Contract-Diff edit-space coverage (L6, L12.2)", () => {
  it("judges every edit of the Tool model, and names no edit the model lacks", () => {
    const { unmapped, stale } = coverageMap();
    assert.deepEqual(unmapped, []);
    assert.deepEqual(stale, []);
  });

  it("fails when the model gains a keyword or a place the map does not judge", () => {
    assert.throws(() => toolModel([...knownKeywords, "x-new-keyword"]), /x-new-keyword/);
    const model = toolModel();
    model.push({
      id: "newField",
      part: "tool",
      field: "newField",
      edits: [{ kind: "set", variants: [""] }],
    });
    assert.deepEqual(coverageMap(model).unmapped, ["newField:set"]);
  });

  it("names only existing diff rules, and places every diff rule", () => {
    const named = new Set<string>();
    for (const e of coverageMap().entries) {
      if (e.judge.rule) named.add(e.judge.rule);
      for (const id of reasonOf(e.judge).match(/\b[A-Z][A-Z_]{5,}\b/g) ?? []) named.add(id);
    }
    assert.deepEqual([...named].filter((id) => !ruleBumps.has(id)).sort(), []);
    assert.deepEqual(
      [...ruleBumps.keys()].filter((id) => !named.has(id) && !(id in rulesOutsideToolEdits)),
      [],
    );
    assert.deepEqual(
      Object.keys(rulesOutsideToolEdits).filter((id) => named.has(id) || !ruleBumps.has(id)),
      [],
    );
  });

  it("refuses a witness the independent Ajv does not prove", () => {
    const { before, after } = buildCase(
      coverageMap().entries.filter((e) => e.edit.id === "inputSchema/property/minimum:set"),
    );
    const { result } = diffListings(before, after);
    const [f] = result.findings;
    assert.equal(witnessProblem(f, before, after), undefined);
    const accepted = {
      ...f,
      witness: { ...f.witness!, value: { name: "t", arguments: { p: 7 } } },
    };
    assert.match(String(witnessProblem(accepted, before, after)), /new schema accepts/);
    const refused = {
      ...f,
      witness: { ...f.witness!, value: { name: "t", arguments: { p: "x" } } },
    };
    assert.match(String(witnessProblem(refused, before, after)), /old schema refuses/);
  });

  describe("every edit, demonstrated on its generated case", function () {
    this.timeout(180_000);
    let report: CoverageReport;
    before(() => {
      report = coverageReport();
    });

    it("covers at least 90% of the wire-relevant edits with a witness, none unaccounted", () => {
      const problems = report.results
        .filter((r) => r.status === "unaccounted")
        .map((r) => `${r.entry.edit.id}: ${r.problem}`);
      assert.deepEqual(problems, []);
      assert.equal(report.unaccounted, 0);
      assert.ok(report.covered / report.wireRelevant >= 0.9, coverageLine(report));
      assert.match(
        coverageLine(report),
        /^\d+ of \d+ wire-relevant edits covered by a rule with a witness \(\d+\.\d%\), \d+ accounted for, 0 unaccounted$/,
      );
    });

    it("every covered edit's case gives the verdict its rule requires", () => {
      for (const r of report.results.filter((x) => x.status === "covered")) {
        const bump = ruleBumps.get(r.entry.judge.rule!);
        assert.equal(r.verdict.bump, bump, r.entry.edit.id);
        assert.equal(r.verdict.breaking, bump === "major", r.entry.edit.id);
        assert.ok(r.verdict.rules.includes(r.entry.judge.rule!), r.entry.edit.id);
      }
    });

    it("keeps docs/diff-coverage.md in step with the map", () => {
      assert.ok(
        readFileSync("docs/diff-coverage.md", "utf8") === coverageMarkdown(report),
        "docs/diff-coverage.md is stale: run `npm run diff:coverage`",
      );
    });
  });
});

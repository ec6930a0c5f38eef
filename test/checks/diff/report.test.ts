import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import type { DiffResult } from "../../../checks/diff/contract-diff.js";
import { lineLocator } from "../../../checks/diff/locate-findings.js";
import { renderDiff } from "../../../checks/diff/report.js";
import { runDiff } from "../../../checks/diff/run-diff.js";
import { repoRoot } from "../../support/temp-project.js";

const corpus = "test/fixtures/diff-corpus";

async function validResult(document: unknown): Promise<boolean> {
  const ajv = new Ajv2020({ strict: true });
  addFormats.default(ajv);
  const schema = JSON.parse(
    await readFile(path.join(repoRoot, "checks/diff/contract-diff-result.schema.json"), "utf8"),
  );
  return ajv.validate(schema, document) as boolean;
}

describe("checks/diff: a finding carries its location from the rule to every output (L12.2)", () => {
  it("locates a pointer at its property name, else at the deepest node that exists", () => {
    const text = '{\n  "tools": [\n    {\n      "name": "a",\n      "x": 1\n    }\n  ]\n}\n';
    const locate = lineLocator(
      [
        { file: "t.json", pointer: "/tools/0/x" },
        { file: "t.json", pointer: "/tools/0/gone/deeper" },
      ],
      (f) => (f === "t.json" ? text : undefined),
    );
    assert.deepEqual(locate({ file: "t.json", pointer: "/tools/0/x" }), {
      file: "t.json",
      pointer: "/tools/0/x",
      line: 5,
      column: 7,
    });
    assert.deepEqual(locate({ file: "t.json", pointer: "/tools/0/gone/deeper" }), {
      file: "t.json",
      pointer: "/tools/0/gone/deeper",
      line: 3,
      column: 5,
    });
    const elsewhere = { file: "other.json", pointer: "/a" };
    assert.equal(locate(elsewhere), elsewhere, "a file that cannot be read keeps its pointer");
  });

  it("every output reads the location the finding itself carries", async () => {
    const outcome = await runDiff({
      root: repoRoot,
      oldFile: `${corpus}/input-new-required-property/old.json`,
      newFile: `${corpus}/input-new-required-property/new.json`,
      snapshotFile: `${corpus}/input-new-required-property/new.json`,
      now: new Date("2026-06-01T00:00:00Z"),
    });
    assert.equal(outcome.status, "compared");
    if (outcome.status !== "compared") return;
    const [finding] = outcome.result.findings;
    assert.ok(finding.location.line !== undefined && finding.location.line > 1);
    const json = JSON.parse(renderDiff(outcome.result, "json"));
    assert.deepEqual(json.findings[0].location, finding.location);
    const sarif = JSON.parse(renderDiff(outcome.result, "sarif"));
    assert.equal(
      sarif.runs[0].results[0].locations[0].physicalLocation.region.startLine,
      finding.location.line,
    );
    const text = renderDiff(outcome.result, "text");
    assert.ok(
      text.includes(`${finding.location.file}:${finding.location.line}:${finding.location.column}`),
      text,
    );
  });

  it("a result that compared nothing prints its notice alone, a valid result document in JSON", async () => {
    const notice: Diagnostic = {
      ruleId: "DIFF_NO_BASELINE",
      severity: "warning",
      message: "nothing was compared",
      location: { file: "contracts/published" },
    };
    const nothing: DiffResult = {
      requiredBump: "none",
      classification: "server-only",
      breaking: false,
      pinning: "none",
      comparisons: [],
      findings: [],
      problems: [notice],
      note: notice.message,
    };
    const json = JSON.parse(renderDiff(nothing, "json"));
    assert.equal(await validResult(json), true);
    assert.deepEqual(Object.keys(json), [
      "requiredBump",
      "classification",
      "breaking",
      "pinning",
      "comparisons",
      "findings",
      "problems",
      "note",
    ]);
    const text = renderDiff(nothing, "text");
    assert.doesNotMatch(text, /verdict/);
    assert.match(text, /^contracts\/published {2}warning {2}DIFF_NO_BASELINE/m);
    assert.doesNotMatch(renderDiff(nothing, "markdown"), /## Contract-Diff/);
  });
});

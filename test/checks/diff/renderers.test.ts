import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import AjvDraft04 from "ajv-draft-04";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { diagnosticFormats, renderDiagnostics } from "../../../diagnostics/render/index.js";
import { repoRoot } from "../../support/temp-project.js";

const RULE = defineRule({
  id: "TEST_RENDER_RULE",
  family: "lint",
  severity: "warning",
  summary: "A rule used by the renderer tests.",
  message: "{text}",
});
const diagnostics: Diagnostic[] = [
  {
    ruleId: RULE.id,
    severity: "warning",
    message: "a | b\nsecond line",
    location: { file: "skills/x/SKILL.md", line: 3, column: 5 },
  },
  {
    ruleId: RULE.id,
    severity: "error",
    message: "no line here",
    location: { file: "tools.json", pointer: "/tools/0" },
    data: { witness: { value: "<b>" } },
  },
];

describe("shared renderers: sarif and markdown (L12.2, L12.3)", () => {
  it("offers text, json, sarif, github and markdown to every command", () => {
    assert.deepEqual([...diagnosticFormats].sort(), [
      "github",
      "json",
      "markdown",
      "sarif",
      "text",
    ]);
  });

  it(
    "SARIF: valid 2.1.0 for findings with and without a line, rule metadata " +
      "(summary, docs link) from the shared table",
    async () => {
      const sarif = JSON.parse(renderDiagnostics(diagnostics, "sarif"));
      const schema = JSON.parse(
        await readFile(
          path.join(
            repoRoot,
            "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json",
          ),
          "utf8",
        ),
      );
      const ajv = new AjvDraft04.default({
        strict: false,
        validateFormats: false,
        unicodeRegExp: false,
      });
      assert.equal(ajv.validate(schema, sarif), true, JSON.stringify(ajv.errors));
      const [withLine, withoutLine] = sarif.runs[0].results;
      assert.deepEqual(withLine.locations[0].physicalLocation.region, {
        startLine: 3,
        startColumn: 5,
      });
      assert.equal(withoutLine.locations[0].physicalLocation.region, undefined);
      assert.equal(withoutLine.locations[0].logicalLocations[0].fullyQualifiedName, "/tools/0");
      const [rule] = sarif.runs[0].tool.driver.rules;
      assert.equal(rule.shortDescription.text, RULE.summary);
      // helpUri is absolute (SARIF §3.49.12) and points at the rule's anchor in docs/rules.md.
      assert.equal(rule.helpUri, "https://skillpilot.com/toolchain/docs/rules.md#test_render_rule");
      // An empty run is valid too (a clean lint).
      assert.equal(ajv.validate(schema, JSON.parse(renderDiagnostics([], "sarif"))), true);
    },
  );

  it("Markdown: escapes table cells and shows witnesses in a details block", () => {
    const md = renderDiagnostics(diagnostics, "markdown");
    assert.match(md, /^\*\*1 error\(s\), 1 warning\(s\), 0 note\(s\)\*\*/);
    assert.match(
      md,
      /\| ⚠️ warning \| `TEST_RENDER_RULE` \| skills\/x\/SKILL\.md:3:5 \| a \\\| b second line \|/,
    );
    assert.match(md, /<details><summary><code>TEST_RENDER_RULE<\/code> no line here<\/summary>/);
    assert.match(md, /"value": "<b>"/);
    assert.equal(renderDiagnostics([], "markdown"), "**0 error(s), 0 warning(s), 0 note(s)**\n\n");
  });
});

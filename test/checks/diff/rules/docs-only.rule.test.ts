import { docsOnly } from "../../../../checks/diff/rules/docs-only.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/docs-only.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, documentation-only changes: TOOL_TITLE_CHANGED, TOOL_DESCRIPTION_CHANGED, SCHEMA_DOCS_CHANGED", () => {
  proveByCorpus(docsOnly, [
    {
      rule: "TOOL_TITLE_CHANGED",
      severity: "note",
      fires: "guard-title-only",
      pointer: "/tools/complete_goal/title",
      message: /complete_goal: title changed/,
      quiet: "guard-description-only",
    },
    {
      rule: "TOOL_DESCRIPTION_CHANGED",
      severity: "note",
      fires: "guard-description-only",
      pointer: "/tools/complete_goal/description",
      message: /complete_goal: description changed/,
      quiet: "guard-title-only",
    },
    {
      rule: "SCHEMA_DOCS_CHANGED",
      severity: "note",
      fires: "guard-schema-descriptions",
      pointer: "/tools/get_context/outputSchema",
      message: /get_context: output schema documentation changed/,
      quiet: "guard-ref-refactor",
    },
  ]);
});

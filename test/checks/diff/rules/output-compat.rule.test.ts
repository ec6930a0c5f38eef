import { outputCompat } from "../../../../checks/diff/rules/output-compat.rule.js";
import {
  toolReferenceAdded,
  toolReferenceRemoved,
} from "../../../../checks/diff/rules/tool-reference.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/output-compat.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, tool outputs: OUTPUT_PROPERTY_ADDED, OUTPUT_TYPE_CHANGED, OUTPUT_ENUM_WIDENED, OUTPUT_CONST_CHANGED, OUTPUT_PATTERN_WIDENED, OUTPUT_PATTERN_CHANGED, OUTPUT_FORMAT_CHANGED, OUTPUT_BOUND_WIDENED, OUTPUT_PROPERTY_REMOVED, OUTPUT_PROPERTY_ADDED_TO_CLOSED, OUTPUT_ADDITIONAL_PROPERTIES_OPENED, OUTPUT_BRANCH_ADDED, OUTPUT_SCHEMA_WIDENED, OUTPUT_PROPERTY_NO_LONGER_REQUIRED, OUTPUT_OPTIONAL_PROPERTY_REMOVED, OUTPUT_NARROWED", () => {
  proveByCorpus(
    outputCompat,
    [
      {
        rule: "OUTPUT_PROPERTY_ADDED",
        severity: "note",
        fires: "guard-output-property-added-open",
        pointer: "/tools/render_goal/outputSchema/properties/imageAlt",
        message:
          /render_goal: new results may carry property "imageAlt", which old clients do not know/,
        quiet: "output-property-added-to-closed",
      },
      {
        rule: "OUTPUT_TYPE_CHANGED",
        severity: "error",
        fires: "output-type-changed",
        pointer: "/tools/get_context/outputSchema/properties/stateVersion",
        message: /get_context: new results may carry a string, which old clients do not accept/,
        quiet: "guard-output-enum-narrowed",
      },
      {
        rule: "OUTPUT_ENUM_WIDENED",
        severity: "error",
        fires: "output-enum-widened",
        pointer: "/tools/get_context/outputSchema/properties/locale",
        message: /get_context: new results may carry value "fr", which old clients do not accept/,
        quiet: "guard-output-enum-narrowed",
      },
      {
        rule: "OUTPUT_CONST_CHANGED",
        severity: "error",
        fires: "output-const-changed",
        pointer: "/tools/get_context/outputSchema/properties/kind",
        message: /get_context: new results may carry value "ctx", which old clients do not accept/,
        quiet: "guard-output-enum-narrowed",
      },
      {
        rule: "OUTPUT_PATTERN_WIDENED",
        severity: "error",
        fires: "output-pattern-widened",
        pointer: "/tools/complete_goal/outputSchema/properties/receipt/properties/receiptId",
        message: /which old clients do not accept \(old pattern/,
        quiet: { reversed: "output-pattern-widened" },
      },
      {
        rule: "OUTPUT_PATTERN_CHANGED",
        severity: "warning",
        fires: "output-pattern-rewritten",
        pointer: "/tools/complete_goal/outputSchema/properties/receipt/properties/receiptId",
        message:
          /complete_goal: pattern changed from "\^rcp_\[A-Za-z0-9\]\{16\}\$" to "\^rcp_\[0-9A-Za-z\]\{16\}\$"/,
        quiet: "output-pattern-widened",
      },
      {
        rule: "OUTPUT_FORMAT_CHANGED",
        severity: "error",
        fires: "output-format-changed",
        pointer: "/tools/complete_goal/outputSchema/properties/receipt/properties/recordedAt",
        message:
          /complete_goal: new results may carry "2026-01-01", which old clients do not accept \(old format/,
        quiet: "guard-output-enum-narrowed",
      },
      {
        rule: "OUTPUT_BOUND_WIDENED",
        severity: "error",
        fires: "output-maximum-raised",
        pointer: "/tools/complete_goal/outputSchema/properties/mastery",
        message:
          /complete_goal: new results may carry numbers > 10, which old clients do not accept/,
        quiet: { reversed: "output-maximum-raised" },
      },
      {
        rule: "OUTPUT_PROPERTY_REMOVED",
        severity: "error",
        fires: "output-property-removed",
        pointer: "/tools/get_context/outputSchema/properties/locale",
        message: /get_context: new results may omit "locale", which old clients require/,
        quiet: "output-optional-property-removed",
      },
      {
        rule: "OUTPUT_PROPERTY_ADDED_TO_CLOSED",
        severity: "error",
        fires: "output-property-added-to-closed",
        pointer: "/tools/get_context/outputSchema/properties/streak",
        message:
          /get_context: new results may carry property "streak", which old clients do not accept/,
        quiet: "guard-output-property-added-open",
      },
      {
        rule: "OUTPUT_ADDITIONAL_PROPERTIES_OPENED",
        severity: "error",
        fires: "output-additional-properties-opened",
        pointer: "/tools/review_card/outputSchema/additionalProperties",
        message:
          /review_card: new results may carry unknown properties, which old clients do not accept/,
        quiet: { reversed: "output-additional-properties-opened" },
      },
      {
        rule: "OUTPUT_BRANCH_ADDED",
        severity: "error",
        fires: "output-branch-added",
        pointer: "/tools/get_context/outputSchema/properties/phase/oneOf/2",
        message:
          /get_context: new results may fit no branch of the old union, which old clients do not accept/,
        quiet: { reversed: "output-branch-added" },
      },
      {
        rule: "OUTPUT_SCHEMA_WIDENED",
        severity: "error",
        fires: "output-schema-widened",
        pointer: "/tools/render_goal/outputSchema",
        message:
          /render_goal: `maxProperties` differs between the old and the new schema; the checker cannot prove that old clients accept all new results/,
        quiet: { reversed: "output-schema-widened" },
      },
      {
        rule: "OUTPUT_PROPERTY_NO_LONGER_REQUIRED",
        severity: "error",
        fires: "output-property-no-longer-required",
        pointer: "/tools/get_context/outputSchema/properties/step",
        message: /get_context: new results may omit "step", which old clients require/,
        quiet: { reversed: "output-property-no-longer-required" },
      },
      {
        rule: "OUTPUT_OPTIONAL_PROPERTY_REMOVED",
        severity: "error",
        fires: "output-optional-property-removed",
        pointer: "/tools/get_context/outputSchema/properties/hint",
        message: /get_context: new results no longer carry property "hint"/,
        quiet: "output-property-removed",
      },
      {
        rule: "OUTPUT_NARROWED",
        severity: "note",
        fires: "guard-output-enum-narrowed",
        pointer: "/tools/get_context/outputSchema/properties/locale",
        message: /get_context: new results no longer carry value "de"/,
        quiet: "output-enum-widened",
      },
    ],
    // Proven in tool-reference.rule.test.ts.
    [toolReferenceAdded, toolReferenceRemoved],
  );
});

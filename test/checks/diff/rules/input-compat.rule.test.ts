import { inputCompat } from "../../../../checks/diff/rules/input-compat.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/input-compat.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, tool inputs: INPUT_PROPERTY_REMOVED, INPUT_TYPE_NARROWED, INPUT_ENUM_NARROWED, INPUT_CONST_CHANGED, INPUT_PATTERN_NARROWED, INPUT_PATTERN_CHANGED, INPUT_FORMAT_NARROWED, INPUT_BOUND_NARROWED, INPUT_REQUIRED_ADDED, INPUT_ADDITIONAL_PROPERTIES_CLOSED, INPUT_BRANCH_REMOVED, INPUT_SCHEMA_NARROWED, INPUT_OPTIONAL_ADDED, INPUT_WIDENED", () => {
  proveByCorpus(inputCompat, [
    {
      rule: "INPUT_PROPERTY_REMOVED",
      severity: "error",
      fires: "input-property-removed",
      pointer: "/tools/complete_goal/inputSchema/properties/ratio",
      message: /complete_goal: property "ratio" is no longer accepted/,
      quiet: "input-optional-added",
    },
    {
      rule: "INPUT_TYPE_NARROWED",
      severity: "error",
      fires: "input-number-to-integer",
      pointer: "/tools/complete_goal/inputSchema/properties/ratio",
      message: /complete_goal: type number is no longer accepted at \/properties\/ratio/,
      quiet: { reversed: "input-number-to-integer" },
    },
    {
      rule: "INPUT_ENUM_NARROWED",
      severity: "error",
      fires: "input-enum-narrowed",
      pointer: "/tools/complete_goal/inputSchema/properties/decision",
      message: /complete_goal: value "skipped" is no longer accepted/,
      quiet: "input-enum-widened",
    },
    {
      rule: "INPUT_CONST_CHANGED",
      severity: "error",
      fires: "input-const-added",
      pointer: "/tools/render_goal/inputSchema/properties/goalId",
      message: /render_goal: the new schema pins the value\(s\) \["g1"\]/,
      quiet: { reversed: "input-const-added" },
    },
    {
      rule: "INPUT_PATTERN_NARROWED",
      severity: "error",
      fires: "input-pattern-added",
      pointer: "/tools/render_goal/inputSchema/properties/goalId",
      message: /render_goal: pattern "\^\[a-z\]\[a-z0-9\.-\]\*\$" added, which rejects ""/,
      quiet: "input-pattern-widened",
    },
    {
      rule: "INPUT_PATTERN_CHANGED",
      severity: "warning",
      fires: "input-pattern-widened",
      pointer: "/tools/get_context/inputSchema/properties/learningSessionId",
      message:
        /get_context: pattern changed to "\^sps_\[A-Za-z0-9_-\]\{16,64\}\$"; no sampled old value is rejected/,
      quiet: "input-pattern-narrowed",
    },
    {
      rule: "INPUT_FORMAT_NARROWED",
      severity: "error",
      fires: "input-format-added",
      pointer: "/tools/render_goal/inputSchema/properties/goalId",
      message: /render_goal: format "uuid" added, which rejects ""/,
      quiet: { reversed: "input-format-added" },
    },
    {
      rule: "INPUT_BOUND_NARROWED",
      severity: "error",
      fires: "input-maxitems-lowered",
      pointer: "/tools/complete_goal/inputSchema/properties/tags",
      message: /complete_goal: maxItems lowered to 2/,
      quiet: "input-maxitems-raised",
    },
    {
      rule: "INPUT_REQUIRED_ADDED",
      severity: "error",
      fires: "input-required-added",
      pointer: "/tools/complete_goal/inputSchema/properties/score",
      message: /complete_goal: property "score" became required/,
      quiet: "input-optional-added",
    },
    {
      rule: "INPUT_ADDITIONAL_PROPERTIES_CLOSED",
      severity: "error",
      fires: "input-additional-properties-closed",
      pointer: "/tools/review_card/inputSchema/additionalProperties",
      message: /review_card: unknown properties are no longer accepted/,
      quiet: { reversed: "input-additional-properties-closed" },
    },
    {
      rule: "INPUT_BRANCH_REMOVED",
      severity: "error",
      fires: "input-oneof-branch-removed",
      pointer: "/tools/complete_goal/inputSchema/properties/option/oneOf/1",
      message: /complete_goal: no branch of the new union accepts every value here/,
      quiet: { reversed: "input-oneof-branch-removed" },
    },
    {
      rule: "INPUT_SCHEMA_NARROWED",
      severity: "error",
      fires: "input-schema-narrowed",
      pointer: "/tools/review_card/inputSchema",
      message: /review_card: the new schema adds or changes `minProperties`/,
      quiet: { reversed: "input-schema-narrowed" },
    },
    {
      rule: "INPUT_OPTIONAL_ADDED",
      severity: "note",
      fires: "input-optional-added",
      pointer: "/tools/complete_goal/inputSchema/properties/confidence",
      message:
        /complete_goal: new calls may carry property "confidence", which the old schema did not accept/,
      quiet: "input-new-required-property",
    },
    {
      rule: "INPUT_WIDENED",
      severity: "note",
      fires: "input-enum-widened",
      pointer: "/tools/review_card/inputSchema/properties/grade",
      message: /review_card: new calls may carry value "hard", which the old schema did not accept/,
      quiet: "input-enum-narrowed",
    },
  ]);
});

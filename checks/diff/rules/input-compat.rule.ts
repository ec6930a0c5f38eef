import { defineDiffRule, type DiffCheck } from "../diff-rule.js";
import type { IncompatKind } from "../schema-subset.js";
import { perspectives } from "../gap-wording.js";
import { declaredAt, reportToolSchemas } from "./schema-compat.js";

// Inputs must stay backward compatible: every call an old client makes must still be accepted.
const narrowed = {
  type: defineDiffRule(
    "INPUT_TYPE_NARROWED",
    "major",
    "An input no longer accepts a JSON type it accepted.",
  ),
  enum: defineDiffRule("INPUT_ENUM_NARROWED", "major", "An input enum lost a value."),
  const: defineDiffRule("INPUT_CONST_CHANGED", "major", "An input const changed or was added."),
  pattern: defineDiffRule(
    "INPUT_PATTERN_NARROWED",
    "major",
    "An input pattern rejects a value the old pattern accepted.",
  ),
  "pattern-unproven": defineDiffRule(
    "INPUT_PATTERN_CHANGED",
    "minor",
    "An input pattern changed; no old value was found that it rejects, but " +
      "inclusion is not proven.",
    { severity: "warning" },
  ),
  format: defineDiffRule("INPUT_FORMAT_NARROWED", "major", "An input format was added or changed."),
  bound: defineDiffRule(
    "INPUT_BOUND_NARROWED",
    "major",
    "An input min/max/length/items/multipleOf/uniqueItems bound narrowed.",
  ),
  required: defineDiffRule(
    "INPUT_REQUIRED_ADDED",
    "major",
    "An input property became required (a new required input).",
  ),
  "property-not-accepted": defineDiffRule(
    "INPUT_PROPERTY_REMOVED",
    "major",
    "An input property is no longer accepted.",
  ),
  closed: defineDiffRule(
    "INPUT_ADDITIONAL_PROPERTIES_CLOSED",
    "major",
    "An input object closed (additionalProperties:false) where it was open.",
  ),
  branch: defineDiffRule(
    "INPUT_BRANCH_REMOVED",
    "major",
    "An input union (oneOf/anyOf) no longer accepts old calls: a branch was " +
      "removed or changed, or oneOf branches now overlap.",
  ),
  unsupported: defineDiffRule(
    "INPUT_SCHEMA_NARROWED",
    "major",
    "An input schema gained a constraint the checker cannot prove compatible.",
  ),
} satisfies Record<IncompatKind, unknown>;

const optionalAdded = defineDiffRule(
  "INPUT_OPTIONAL_ADDED",
  "minor",
  "A new optional input property.",
);
const widened = defineDiffRule(
  "INPUT_WIDENED",
  "minor",
  "An input accepts more values than before (a compatible addition).",
);

/** Direction-aware input comparison (old ⊆ new is required; new ⊋ old is a MINOR addition). */
export const inputCompat: DiffCheck = {
  rules: [...Object.values(narrowed), optionalAdded, widened],
  check(ctx, report) {
    reportToolSchemas(ctx, report, "input", (before) => [
      { wording: perspectives.oldCalls, rule: (inc) => narrowed[inc.kind] },
      {
        wording: perspectives.newCalls,
        rule: (inc) =>
          inc.kind === "property-not-accepted" || !declaredAt(before.input, inc.path)
            ? optionalAdded
            : inc.kind === "pattern-unproven"
              ? undefined
              : widened,
      },
    ]);
  },
};

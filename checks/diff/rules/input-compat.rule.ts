import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import type { IncompatKind } from "../schema-subset.js";
import { perspectives } from "../gap-wording.js";
import { gapMessage, newPropertyAt, reportToolSchemas } from "./schema-compat.js";

// A declared input that is gone: refused by a closed object, silently ignored by an open one.
const propertyRemoved = defineRule({
  id: "INPUT_PROPERTY_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary:
    "A declared input property was removed or renamed: calls that send it are refused (closed " +
    "object) or silently ignored (open object).",
  message: gapMessage,
});

// Inputs must stay backward compatible: every call an old client makes must still be accepted.
const narrowed = {
  type: defineRule({
    id: "INPUT_TYPE_NARROWED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input no longer accepts a JSON type it accepted.",
    message: gapMessage,
  }),
  enum: defineRule({
    id: "INPUT_ENUM_NARROWED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input enum lost a value.",
    message: gapMessage,
  }),
  const: defineRule({
    id: "INPUT_CONST_CHANGED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input const changed or was added.",
    message: gapMessage,
  }),
  pattern: defineRule({
    id: "INPUT_PATTERN_NARROWED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input pattern rejects a value the old pattern accepted.",
    message: gapMessage,
  }),
  "pattern-unproven": defineRule({
    id: "INPUT_PATTERN_CHANGED",
    family: "diff",
    bump: "minor",
    severity: "warning",
    summary:
      "An input pattern changed; no old value was found that it rejects, but " +
      "inclusion is not proven.",
    message: gapMessage,
  }),
  format: defineRule({
    id: "INPUT_FORMAT_NARROWED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input format was added or changed.",
    message: gapMessage,
  }),
  bound: defineRule({
    id: "INPUT_BOUND_NARROWED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input min/max/length/items/multipleOf/uniqueItems bound narrowed.",
    message: gapMessage,
  }),
  required: defineRule({
    id: "INPUT_REQUIRED_ADDED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input property became required (a new required input).",
    message: gapMessage,
  }),
  "property-not-accepted": propertyRemoved,
  undeclared: propertyRemoved,
  closed: defineRule({
    id: "INPUT_ADDITIONAL_PROPERTIES_CLOSED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input object closed (additionalProperties:false) where it was open.",
    message: gapMessage,
  }),
  branch: defineRule({
    id: "INPUT_BRANCH_REMOVED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary:
      "An input union (oneOf/anyOf) no longer accepts old calls: a branch was " +
      "removed or changed, or oneOf branches now overlap.",
    message: gapMessage,
  }),
  unsupported: defineRule({
    id: "INPUT_SCHEMA_NARROWED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An input schema gained a constraint the checker cannot prove compatible.",
    message: gapMessage,
  }),
} satisfies Record<IncompatKind, unknown>;

const optionalAdded = defineRule({
  id: "INPUT_OPTIONAL_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A new optional input property.",
  message: gapMessage,
});
const widened = defineRule({
  id: "INPUT_WIDENED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "An input accepts more values than before (a compatible addition).",
  message: gapMessage,
});

/** Direction-aware input comparison (old ⊆ new is required; new ⊋ old is a MINOR addition). */
export const inputCompat: DiffCheck = {
  rules: [...new Set(Object.values(narrowed)), optionalAdded, widened],
  check(ctx, report) {
    reportToolSchemas(ctx, report, "input", (before) => [
      { wording: perspectives.oldCalls, rule: (inc) => narrowed[inc.kind] },
      {
        wording: perspectives.newCalls,
        rule: (inc) =>
          inc.kind === "property-not-accepted" ||
          inc.kind === "undeclared" ||
          newPropertyAt(before.input, inc.path)
            ? optionalAdded
            : inc.kind === "pattern-unproven"
              ? undefined
              : widened,
      },
    ]);
  },
};

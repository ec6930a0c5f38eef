import { defineDiffRule, type DiffCheck } from "../diff-rule.js";
import type { IncompatKind } from "../schema-subset.js";
import { perspectives } from "../gap-wording.js";
import { declaredAt, reportToolSchemas, stillDeclared } from "./schema-compat.js";

// Outputs must stay forward compatible: every result the new server returns must satisfy old
// clients.
const widened = {
  type: defineDiffRule(
    "OUTPUT_TYPE_CHANGED",
    "major",
    "An output may now carry a JSON type old clients reject.",
  ),
  enum: defineDiffRule(
    "OUTPUT_ENUM_WIDENED",
    "major",
    "An output enum gained a value old clients do not know.",
  ),
  const: defineDiffRule("OUTPUT_CONST_CHANGED", "major", "An output const changed."),
  pattern: defineDiffRule(
    "OUTPUT_PATTERN_WIDENED",
    "major",
    "An output may carry strings the old pattern rejects.",
  ),
  "pattern-unproven": defineDiffRule(
    "OUTPUT_PATTERN_CHANGED",
    "minor",
    "An output pattern changed; no new value was found that old clients reject, " +
      "but inclusion is not proven.",
    { severity: "warning" },
  ),
  format: defineDiffRule(
    "OUTPUT_FORMAT_CHANGED",
    "major",
    "An output format changed or was dropped.",
  ),
  bound: defineDiffRule(
    "OUTPUT_BOUND_WIDENED",
    "major",
    "An output min/max/length/items bound widened beyond what old clients accept.",
  ),
  required: defineDiffRule(
    "OUTPUT_PROPERTY_REMOVED",
    "major",
    "An output property old clients require is gone.",
  ),
  "property-not-accepted": defineDiffRule(
    "OUTPUT_PROPERTY_ADDED_TO_CLOSED",
    "major",
    "An output property was added to an object old clients keep closed.",
  ),
  closed: defineDiffRule(
    "OUTPUT_ADDITIONAL_PROPERTIES_OPENED",
    "major",
    "An output object opened where old clients expect it closed.",
  ),
  branch: defineDiffRule(
    "OUTPUT_BRANCH_ADDED",
    "major",
    "An output union may return values old clients reject: a branch was added or " +
      "changed, or old oneOf branches would overlap.",
  ),
  unsupported: defineDiffRule(
    "OUTPUT_SCHEMA_WIDENED",
    "major",
    "An output schema lost a constraint the checker cannot prove harmless.",
  ),
} satisfies Record<IncompatKind, unknown>;

const noLongerRequired = defineDiffRule(
  "OUTPUT_PROPERTY_NO_LONGER_REQUIRED",
  "major",
  "An output property old clients require became optional.",
);
const droppedOptional = defineDiffRule(
  "OUTPUT_OPTIONAL_PROPERTY_REMOVED",
  "major",
  "A declared output property was removed (a removed field).",
);
const narrowed = defineDiffRule(
  "OUTPUT_NARROWED",
  "patch",
  "An output returns a subset of what it returned before (compatible).",
);
const added = defineDiffRule(
  "OUTPUT_PROPERTY_ADDED",
  "minor",
  "A new output property on an object old clients keep open (a compatible addition).",
);

/** Direction-aware output comparison (new ⊆ old is required; old ⊋ new is a PATCH). */
export const outputCompat: DiffCheck = {
  rules: [...Object.values(widened), noLongerRequired, droppedOptional, narrowed, added],
  check(ctx, report) {
    reportToolSchemas(ctx, report, "output", (before) => [
      {
        wording: perspectives.newResults,
        rule: (inc, target) =>
          inc.kind === "required" &&
          stillDeclared(inc, ctx.new.tools.get(before.name)!.output) &&
          stillDeclared(inc, target)
            ? noLongerRequired
            : widened[inc.kind],
      },
      {
        wording: perspectives.oldResults,
        rule: (inc) =>
          inc.kind === "property-not-accepted"
            ? droppedOptional
            : inc.kind === "pattern-unproven"
              ? undefined
              : declaredAt(before.output, inc.path)
                ? narrowed
                : added,
      },
    ]);
  },
};

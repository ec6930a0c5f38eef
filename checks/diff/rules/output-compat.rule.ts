import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import type { IncompatKind } from "../schema-subset.js";
import { perspectives } from "../gap-wording.js";
import { gapMessage, newPropertyAt, reportToolSchemas, stillDeclared } from "./schema-compat.js";
import {
  toolReferenceAdded,
  toolReferenceRemoved,
  toolReferenceRule,
} from "./tool-reference.rule.js";

// A new property on an open object is outside what old clients were promised: an addition.
const added = defineRule({
  id: "OUTPUT_PROPERTY_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A new output property on an object old clients keep open (a compatible addition).",
  message: gapMessage,
});

// Outputs must stay forward compatible: every result the new server returns must satisfy old
// clients.
const widened = {
  type: defineRule({
    id: "OUTPUT_TYPE_CHANGED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output may now carry a JSON type old clients reject.",
    message: gapMessage,
  }),
  enum: defineRule({
    id: "OUTPUT_ENUM_WIDENED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output enum gained a value old clients do not know.",
    message: gapMessage,
  }),
  const: defineRule({
    id: "OUTPUT_CONST_CHANGED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output const changed.",
    message: gapMessage,
  }),
  pattern: defineRule({
    id: "OUTPUT_PATTERN_WIDENED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output may carry strings the old pattern rejects.",
    message: gapMessage,
  }),
  "pattern-unproven": defineRule({
    id: "OUTPUT_PATTERN_CHANGED",
    family: "diff",
    bump: "minor",
    severity: "warning",
    summary:
      "An output pattern changed; no new value was found that old clients reject, " +
      "but inclusion is not proven.",
    message: gapMessage,
  }),
  format: defineRule({
    id: "OUTPUT_FORMAT_CHANGED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output format changed or was dropped.",
    message: gapMessage,
  }),
  bound: defineRule({
    id: "OUTPUT_BOUND_WIDENED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output min/max/length/items bound widened beyond what old clients accept.",
    message: gapMessage,
  }),
  required: defineRule({
    id: "OUTPUT_PROPERTY_REMOVED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output property old clients require is gone.",
    message: gapMessage,
  }),
  "property-not-accepted": defineRule({
    id: "OUTPUT_PROPERTY_ADDED_TO_CLOSED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output property was added to an object old clients keep closed.",
    message: gapMessage,
  }),
  undeclared: added,
  closed: defineRule({
    id: "OUTPUT_ADDITIONAL_PROPERTIES_OPENED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output object opened where old clients expect it closed.",
    message: gapMessage,
  }),
  branch: defineRule({
    id: "OUTPUT_BRANCH_ADDED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary:
      "An output union may return values old clients reject: a branch was added or " +
      "changed, or old oneOf branches would overlap.",
    message: gapMessage,
  }),
  unsupported: defineRule({
    id: "OUTPUT_SCHEMA_WIDENED",
    family: "diff",
    bump: "major",
    severity: "error",
    summary: "An output schema lost a constraint the checker cannot prove harmless.",
    message: gapMessage,
  }),
} satisfies Record<IncompatKind, unknown>;

const noLongerRequired = defineRule({
  id: "OUTPUT_PROPERTY_NO_LONGER_REQUIRED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "An output property old clients require became optional.",
  message: gapMessage,
});
const droppedOptional = defineRule({
  id: "OUTPUT_OPTIONAL_PROPERTY_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A declared output property was removed (a removed field).",
  message: gapMessage,
});
const narrowed = defineRule({
  id: "OUTPUT_NARROWED",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary: "An output returns a subset of what it returned before (compatible).",
  message: gapMessage,
});

/** Direction-aware output comparison (new ⊆ old is required; old ⊋ new is a PATCH). */
export const outputCompat: DiffCheck = {
  rules: [
    ...new Set([
      ...Object.values(widened),
      noLongerRequired,
      droppedOptional,
      narrowed,
      toolReferenceAdded,
      toolReferenceRemoved,
    ]),
  ],
  check(ctx, report) {
    reportToolSchemas(ctx, report, "output", (before) => [
      {
        wording: perspectives.newResults,
        rule: (inc, target) =>
          toolReferenceRule(ctx, inc, "added") ??
          (inc.kind === "required" &&
          stillDeclared(inc, ctx.new.tools.get(before.name)!.output) &&
          stillDeclared(inc, target)
            ? noLongerRequired
            : widened[inc.kind]),
      },
      {
        wording: perspectives.oldResults,
        rule: (inc) =>
          toolReferenceRule(ctx, inc, "removed") ??
          (inc.kind === "property-not-accepted" || inc.kind === "undeclared"
            ? droppedOptional
            : inc.kind === "pattern-unproven"
              ? undefined
              : newPropertyAt(before.output, inc.path)
                ? added
                : narrowed),
      },
    ]);
  },
};

import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import { perspectives } from "../gap-wording.js";
import { sampleValue } from "../sample.js";
import { gapMessage, reportSchemaPair } from "./schema-compat.js";
import { toolReferenceRule } from "./tool-reference.rule.js";

const narrowed = defineRule({
  id: "ENVELOPE_NARROWED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A shared envelope rejects a value it accepted (old writers break).",
  message: gapMessage,
});
const widened = defineRule({
  id: "ENVELOPE_WIDENED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A shared envelope admits a value old readers reject.",
  message: gapMessage,
});
const removed = defineRule({
  id: "ENVELOPE_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A shared envelope schema was removed.",
  message: "envelope {envelope} was removed",
});
const propertyAdded = defineRule({
  id: "ENVELOPE_PROPERTY_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A shared envelope that leaves properties open declares a new optional property.",
  message: gapMessage,
});
const added = defineRule({
  id: "ENVELOPE_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A new shared envelope schema.",
  message: "new envelope {envelope}",
});

/**
 * Shared envelopes are read and written by both sides, so they must stay compatible in both
 * directions. Only snapshots carry envelopes: against a plain tools/list (e.g. a live server's)
 * there is nothing to compare, which is neither an addition nor a removal.
 */
export const envelopeCompat: DiffCheck = {
  rules: [narrowed, widened, removed, added, propertyAdded],
  check(ctx, report) {
    if (ctx.old.format !== "snapshot" || ctx.new.format !== "snapshot") return;
    for (const [name, before] of ctx.old.envelopes) {
      const after = ctx.new.envelopes.get(name);
      if (!after) {
        const value = sampleValue(before.schema);
        report(
          removed,
          { envelope: name },
          {
            pointer: `/envelopes/${name}`,
            at: { side: "old", pointer: before.pointer },
            before: before.schema,
            after: null,
            witness: {
              kind: "value",
              acceptedBy: "old",
              rejectedBy: "new",
              value,
              verified: ctx.checker.accepts(before.schema, value) === true,
            },
          },
        );
        continue;
      }
      reportSchemaPair(
        ctx,
        report,
        {
          stable: `/envelopes/${name}`,
          oldPointer: before.pointer,
          newPointer: after.pointer,
          old: before.schema,
          new: after.schema,
          witnessKind: "value",
          wrap: (v) => v,
        },
        [
          {
            wording: perspectives.oldValues,
            rule: (inc) => toolReferenceRule(ctx, inc, "removed") ?? narrowed,
          },
          {
            wording: perspectives.newValues,
            rule: (inc) =>
              toolReferenceRule(ctx, inc, "added") ??
              (inc.kind === "undeclared" ? propertyAdded : widened),
          },
        ],
      );
    }
    for (const [name, after] of ctx.new.envelopes)
      if (!ctx.old.envelopes.has(name))
        report(
          added,
          { envelope: name },
          {
            pointer: `/envelopes/${name}`,
            at: { side: "new", pointer: after.pointer },
            before: null,
            after: after.schema,
          },
        );
  },
};

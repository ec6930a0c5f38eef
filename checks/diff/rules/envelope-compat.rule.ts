import { defineDiffRule, type DiffCheck } from "../diff-rule.js";
import { perspectives } from "../gap-wording.js";
import { sampleValue } from "../sample.js";
import { reportSchemaPair } from "./schema-compat.js";

const narrowed = defineDiffRule(
  "ENVELOPE_NARROWED",
  "major",
  "A shared envelope rejects a value it accepted (old writers break).",
);
const widened = defineDiffRule(
  "ENVELOPE_WIDENED",
  "major",
  "A shared envelope admits a value old readers reject.",
);
const removed = defineDiffRule(
  "ENVELOPE_REMOVED",
  "major",
  "A shared envelope schema was removed.",
);
const added = defineDiffRule("ENVELOPE_ADDED", "minor", "A new shared envelope schema.");

/**
 * Shared envelopes are read and written by both sides, so they must stay compatible in both
 * directions.
 */
export const envelopeCompat: DiffCheck = {
  rules: [narrowed, widened, removed, added],
  check(ctx, report) {
    for (const [name, before] of ctx.old.envelopes) {
      const after = ctx.new.envelopes.get(name);
      if (!after) {
        const value = sampleValue(before.schema);
        report(removed, {
          pointer: `/envelopes/${name}`,
          at: { side: "old", pointer: before.pointer },
          message: `envelope ${name} was removed`,
          before: before.schema,
          after: null,
          witness: {
            kind: "value",
            acceptedBy: "old",
            rejectedBy: "new",
            value,
            verified: ctx.checker.accepts(before.schema, value) === true,
          },
        });
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
          { wording: perspectives.oldValues, rule: () => narrowed },
          { wording: perspectives.newValues, rule: () => widened },
        ],
      );
    }
    for (const [name, after] of ctx.new.envelopes)
      if (!ctx.old.envelopes.has(name))
        report(added, {
          pointer: `/envelopes/${name}`,
          at: { side: "new", pointer: after.pointer },
          message: `new envelope ${name}`,
          before: null,
          after: after.schema,
        });
  },
};

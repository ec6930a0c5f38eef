import { defineRule } from "../../../diagnostics/rule.js";
import { jsonEqual } from "../../../json-schema/schema-facts.js";
import type { DiffCheck } from "../diff-rule.js";

const changed = defineRule({
  id: "LISTING_CHANGED",
  family: "diff",
  pinning: "by-text",
  bump: "patch",
  severity: "note",
  summary:
    "The directory listing changed (display name, icons, subtitle, description, category, links): " +
    "how the app is presented, not what it does. PATCH.",
  message: "listing {field} {how}",
});

/**
 * The directory listing, field by field, judged only where both sides carry one: a side without a
 * listing (a tools/list result, an older snapshot) has nothing to compare.
 */
export const listingChanges: DiffCheck = {
  rules: [changed],
  check(ctx, report) {
    const before = ctx.old.listing;
    const after = ctx.new.listing;
    if (!before || !after) return;
    const fields = [...new Set([...before.keys(), ...after.keys()])].sort();
    for (const field of fields) {
      const a = before.get(field);
      const b = after.get(field);
      if (jsonEqual(a, b)) continue;
      const pointer = `/plugin/${field}`;
      report(
        changed,
        { field, how: a === undefined ? "added" : b === undefined ? "removed" : "changed" },
        {
          pointer,
          at: { side: b === undefined ? "old" : "new", pointer },
          before: a ?? null,
          after: b ?? null,
        },
      );
    }
  },
};

import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";

const cacheChanged = defineRule({
  id: "LISTING_CACHE_CHANGED",
  family: "diff",
  pinning: "descriptive",
  bump: "patch",
  severity: "note",
  summary:
    "The tools/list result's cache hint (ttlMs, cacheScope) changed: how long hosts may reuse the " +
    "listing, not what it says. A longer or shorter cache is PATCH.",
  message:
    "tools/list cache hint changed: ttlMs {ttlBefore} → {ttlAfter}, cacheScope {scopeBefore} → {scopeAfter}; hosts pick up a changed listing only after the old hint expires",
});

const show = (value: unknown) => (value === undefined ? "unset" : String(value));

/**
 * A changed cache hint of the listing (MCP 2026-07-28), judged only where both sides carry one
 * (a snapshot has none, so comparing it with a live listing reports nothing).
 */
export const listingCache: DiffCheck = {
  rules: [cacheChanged],
  check(ctx, report) {
    const before = ctx.old.listingCache;
    const after = ctx.new.listingCache;
    if (!before || !after) return;
    if (before.ttlMs === after.ttlMs && before.cacheScope === after.cacheScope) return;
    report(
      cacheChanged,
      {
        ttlBefore: show(before.ttlMs),
        ttlAfter: show(after.ttlMs),
        scopeBefore: show(before.cacheScope),
        scopeAfter: show(after.cacheScope),
      },
      { pointer: "/ttlMs", at: { side: "new", pointer: "" }, before, after },
    );
  },
};

import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import { sampleValue } from "../sample.js";

const removed = defineRule({
  id: "UI_BINDING_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A tool lost its UI binding.",
  message: "{tool}: UI binding {uri} removed",
});
// Additive for compatibility: hosts that do not render UI ignore the binding, and old calls keep
// their results. Whether a tool may bind UI at all is a policy of the contract, not of the
// comparison: `generate` (UI_BINDING_INVALID) and `lint` (GATE_UI_ON_WRITE) keep domain writes
// unbound.
const added = defineRule({
  id: "UI_BINDING_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary:
    "An existing tool gained a UI binding (an addition; which tools may bind UI is checked by " +
    "generate and lint, not by the diff).",
  message: "{tool}: now binds UI {uri}",
});
const changed = defineRule({
  id: "UI_BINDING_CHANGED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A tool binds a different UI resource.",
  message: "{tool}: UI binding changed {before} → {after}",
});
const visibility = defineRule({
  id: "UI_VISIBILITY_CHANGED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A tool's visibility (model/app) changed.",
  message: "{tool}: visibility {before} → {after}",
});
const rotated = defineRule({
  id: "UI_URI_ROTATED",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary:
    "A tool's UI moved to a new content-addressed URI of the same resource (a compatible UI fix).",
  message: "{tool}: UI moved to {uri}",
});
const resourceAdded = defineRule({
  id: "UI_RESOURCE_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A new UI resource URI family is served.",
  message: "new UI resource {uri}",
});

/**
 * `ui://…/sha256-<hex>/…` without its content hash: the resource a content-addressed URI belongs
 * to.
 */
export function uiFamily(uri: string): string {
  return uri.replace(/\/sha256-[0-9a-f]{16,}(?=\/|$)/i, "/sha256-*");
}

const visibilityOf = (v: string[] | undefined) => JSON.stringify(v ?? ["app", "model"]);

/**
 * UI binding (`_meta.ui.resourceUri` / `openai/outputTemplate`) and visibility changes per tool.
 */
export const uiBindingChanges: DiffCheck = {
  rules: [removed, added, changed, visibility, rotated, resourceAdded],
  check(ctx, report) {
    for (const [name, before] of ctx.old.tools) {
      const after = ctx.new.tools.get(name);
      if (!after) continue;
      const base = { tool: name, at: { side: "new" as const, pointer: `${after.pointer}/_meta` } };
      const witness = (value: unknown) => ({
        kind: "call" as const,
        acceptedBy: "old" as const,
        rejectedBy: "new" as const,
        value: { name, arguments: sampleValue(before.input), ...(value as object) },
        verified: true,
      });
      if (before.uiUri !== after.uiUri) {
        const pointer = `/tools/${name}/_meta/ui/resourceUri`;
        const finding = {
          ...base,
          pointer,
          before: before.uiUri ?? null,
          after: after.uiUri ?? null,
        };
        if (!after.uiUri)
          report(
            removed,
            { tool: name, uri: String(before.uiUri) },
            { ...finding, witness: witness({ expectedUi: before.uiUri }) },
          );
        else if (!before.uiUri) report(added, { tool: name, uri: after.uiUri }, finding);
        else if (uiFamily(before.uiUri) === uiFamily(after.uiUri))
          report(rotated, { tool: name, uri: after.uiUri }, finding);
        else
          report(
            changed,
            { tool: name, before: before.uiUri, after: after.uiUri },
            {
              ...finding,
              witness: witness({ expectedUi: before.uiUri, renderedUi: after.uiUri }),
            },
          );
      }
      if (visibilityOf(before.visibility) !== visibilityOf(after.visibility))
        report(
          visibility,
          {
            tool: name,
            before: visibilityOf(before.visibility),
            after: visibilityOf(after.visibility),
          },
          {
            ...base,
            pointer: `/tools/${name}/_meta/ui/visibility`,
            before: before.visibility ?? null,
            after: after.visibility ?? null,
            witness: witness({
              visibleTo: JSON.parse(visibilityOf(before.visibility)),
              nowVisibleTo: JSON.parse(visibilityOf(after.visibility)),
            }),
          },
        );
    }
    const families = new Set(
      [...ctx.old.tools.values()].flatMap((t) => (t.uiUri ? [uiFamily(t.uiUri)] : [])),
    );
    for (const [name, t] of ctx.new.tools)
      if (t.uiUri && !families.has(uiFamily(t.uiUri))) {
        families.add(uiFamily(t.uiUri));
        report(
          resourceAdded,
          { uri: t.uiUri },
          {
            tool: name,
            pointer: `/tools/${name}/_meta/ui/resourceUri`,
            at: { side: "new", pointer: `${t.pointer}/_meta` },
            before: null,
            after: t.uiUri,
          },
        );
      }
  },
};

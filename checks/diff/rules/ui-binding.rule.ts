import { defineDiffRule, type DiffCheck } from "../diff-rule.js";
import { sampleValue } from "../sample.js";

const removed = defineDiffRule("UI_BINDING_REMOVED", "major", "A tool lost its UI binding.");
const added = defineDiffRule(
  "UI_BINDING_ADDED",
  "major",
  "An existing tool gained a UI binding (domain tools stay unbound).",
);
const changed = defineDiffRule(
  "UI_BINDING_CHANGED",
  "major",
  "A tool binds a different UI resource.",
);
const visibility = defineDiffRule(
  "UI_VISIBILITY_CHANGED",
  "major",
  "A tool's visibility (model/app) changed.",
);
const rotated = defineDiffRule(
  "UI_URI_ROTATED",
  "patch",
  "A tool's UI moved to a new content-addressed URI of the same resource (a compatible UI fix).",
);
const resourceAdded = defineDiffRule(
  "UI_RESOURCE_ADDED",
  "minor",
  "A new UI resource URI family is served.",
);

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
        const msg = (s: string) => ({
          ...base,
          pointer,
          message: `${name}: ${s}`,
          before: before.uiUri ?? null,
          after: after.uiUri ?? null,
        });
        if (!after.uiUri)
          report(removed, {
            ...msg(`UI binding ${before.uiUri} removed`),
            witness: witness({ expectedUi: before.uiUri }),
          });
        else if (!before.uiUri)
          report(added, {
            ...msg(`now binds UI ${after.uiUri}`),
            witness: witness({ renderedUi: after.uiUri }),
          });
        else if (uiFamily(before.uiUri) === uiFamily(after.uiUri))
          report(rotated, msg(`UI moved to ${after.uiUri}`));
        else
          report(changed, {
            ...msg(`UI binding changed ${before.uiUri} → ${after.uiUri}`),
            witness: witness({ expectedUi: before.uiUri, renderedUi: after.uiUri }),
          });
      }
      if (visibilityOf(before.visibility) !== visibilityOf(after.visibility))
        report(visibility, {
          ...base,
          pointer: `/tools/${name}/_meta/ui/visibility`,
          message:
            `${name}: visibility ${visibilityOf(before.visibility)} → ` +
            `${visibilityOf(after.visibility)}`,
          before: before.visibility ?? null,
          after: after.visibility ?? null,
          witness: witness({
            visibleTo: JSON.parse(visibilityOf(before.visibility)),
            nowVisibleTo: JSON.parse(visibilityOf(after.visibility)),
          }),
        });
    }
    const families = new Set(
      [...ctx.old.tools.values()].flatMap((t) => (t.uiUri ? [uiFamily(t.uiUri)] : [])),
    );
    for (const [name, t] of ctx.new.tools)
      if (t.uiUri && !families.has(uiFamily(t.uiUri))) {
        families.add(uiFamily(t.uiUri));
        report(resourceAdded, {
          tool: name,
          pointer: `/tools/${name}/_meta/ui/resourceUri`,
          at: { side: "new", pointer: `${t.pointer}/_meta` },
          message: `new UI resource ${t.uiUri}`,
          before: null,
          after: t.uiUri,
        });
      }
  },
};

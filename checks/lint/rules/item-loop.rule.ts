import { isObject, propertiesOf, requiredOf } from "../../../json-schema/schema-facts.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { lintRule, type LintTool } from "../lint-rule.js";

// A tool name reduced to its action: batch markers gone, plural segments singular.
const stem = (name: string) =>
  name
    .split("_")
    .filter((s) => s !== "batch" && s !== "bulk" && s !== "many")
    .map((s) => s.replace(/(?<=[a-z]{3})(ies)$/, "y").replace(/(?<=[a-z]{3})s$/, ""))
    .join("_");

const takesBatch = (t: LintTool) =>
  isObject(t.rawInput) &&
  [...requiredOf(t.rawInput)].some((n) => {
    const p = propertiesOf(t.rawInput as Record<string, unknown>)[n];
    return isObject(p) && p.type === "array";
  });

/**
 * Zero model loops (G3, C4, C16): where a batch tool exists, an item-at-a-time twin invites the
 * model to loop per card/goal. App-only tools are exempt: the widget, not the model, drives them.
 */
export const itemLoop = lintRule(
  defineRule({
    id: "GATE_ITEM_LOOP",
    family: "lint",
    severity: "error",
    summary: "No item-at-a-time tool beside a batch tool for the same action (G3, C4, C16).",
    message:
      "{tool} handles one item while {batch} takes the whole batch; the model would loop (remove the per-item tool)",
  }),
  (tools, doc, report) => {
    const batches = tools.filter(takesBatch);
    for (const t of tools) {
      if (t.appOnly || takesBatch(t)) continue;
      const twin = batches.find((b) => b.name !== t.name && stem(b.name) === stem(t.name));
      if (twin) report({ tool: t.name, batch: twin.name }, { file: doc.file, pointer: t.pointer });
    }
  },
);

import { defineRule } from "../../../diagnostics/rule.js";
import { lintRule } from "../lint-rule.js";

/** UI binds only to read-only tools (C10, L9): domain writes never open a widget. */
export const uiOnReadOnly = lintRule(
  defineRule({
    id: "GATE_UI_ON_WRITE",
    family: "lint",
    severity: "error",
    summary:
      "Only read-only tools bind a UI resource (ui.resourceUri / openai/outputTemplate) (C10, L9).",
    message: "{tool} binds UI {uri} but is not a read-only tool",
  }),
  (tools, doc, report) => {
    for (const t of tools)
      if (t.uiUri && (t.effectiveKind !== "read" || t.annotations?.readOnlyHint !== true))
        report({ tool: t.name, uri: t.uiUri }, { file: doc.file, pointer: `${t.pointer}/_meta` });
  },
);

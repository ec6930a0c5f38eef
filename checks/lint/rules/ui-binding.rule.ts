import { createLintRule } from "../lint-rule.js";

/** UI binds only to read-only tools (C10, L9): domain writes never open a widget. */
export const uiOnReadOnly = createLintRule({
  id: "GATE_UI_ON_WRITE",
  severity: "error",
  summary:
    "Only read-only tools bind a UI resource (ui.resourceUri / openai/outputTemplate) (C10, L9).",
  check(tools, doc, report) {
    for (const t of tools)
      if (t.uiUri && (t.effectiveKind !== "read" || t.annotations?.readOnlyHint !== true))
        report(`${t.name} binds UI ${t.uiUri} but is not a read-only tool`, {
          file: doc.file,
          pointer: `${t.pointer}/_meta`,
        });
  },
});

import { projectLayout } from "../../contract-model/project/project-layout.js";
import { defineRule } from "../../diagnostics/rule.js";
import { isObject } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";

/**
 * UI binding rules (L9, L10, C10): only read tools bind a UI resource; the bound resource has an
 * active URI in release/line.json; app-only tools are exactly those with visibility ["app"].
 */
export const uiBinding = generatorRule(
  defineRule({
    id: "UI_BINDING_INVALID",
    family: "generator",
    severity: "error",
    summary:
      "Only read tools bind UI, to an active URI from release/line.json; app-only " +
      'tools have visibility ["app"] (L9, L10).',
    message: {
      notRead: "{tool} binds UI but is not a read tool; domain writes stay unbound",
      inactive: "{tool} binds UI resource {resource}, but {lineFile} names no active URI for it",
      appOnly: '{tool} is app-only but its visibility is not ["app"]',
      kind: '{tool} has visibility ["app"] but kind {kind}; use kind app-only',
    },
  }),
  (ctx, report) => {
    const activeUi =
      isObject(ctx.line?.json) && isObject(ctx.line.json.activeUi) ? ctx.line.json.activeUi : {};
    for (const t of ctx.tools) {
      const tool = String(t.doc.name);
      const ui = t.doc.ui;
      if (isObject(ui)) {
        if (t.doc.kind !== "read")
          report({ variant: "notRead", tool }, { file: t.file, pointer: "/ui" });
        const resource = String(ui.resource);
        if (typeof activeUi[resource] !== "string")
          report(
            {
              variant: "inactive",
              tool,
              resource,
              lineFile: ctx.line?.file ?? projectLayout.lineFile,
            },
            { file: t.file, pointer: "/ui/resource" },
          );
      }
      const vis = t.doc.visibility;
      const appOnly = Array.isArray(vis) && vis.length === 1 && vis[0] === "app";
      if (t.doc.kind === "app-only" && !appOnly)
        report({ variant: "appOnly", tool }, { file: t.file, pointer: "/visibility" });
      if (t.doc.kind !== "app-only" && appOnly)
        report(
          { variant: "kind", tool, kind: String(t.doc.kind) },
          { file: t.file, pointer: "/kind" },
        );
    }
  },
);

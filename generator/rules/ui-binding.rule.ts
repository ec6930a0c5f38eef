import { isObject } from "../../json-schema/walk.js";
import { createRule } from "./rule.js";
import { projectLayout } from "../../contract/project-layout.js";

/**
 * UI binding rules (L9, L10, C10): only read tools bind a UI resource; the bound resource has an
 * active URI in release/line.json; app-only tools are exactly those with visibility ["app"].
 */
export const uiBinding = createRule({
  id: "UI_BINDING_INVALID",
  severity: "error",
  summary:
    "Only read tools bind UI, to an active URI from release/line.json; app-only " +
    'tools have visibility ["app"] (L9, L10).',
  check: (ctx, report) => {
    const activeUi =
      isObject(ctx.line?.json) && isObject(ctx.line.json.activeUi) ? ctx.line.json.activeUi : {};
    for (const tool of ctx.tools) {
      const name = String(tool.doc.name);
      const ui = tool.doc.ui;
      if (isObject(ui)) {
        if (tool.doc.kind !== "read")
          report(`${name} binds UI but is not a read tool; domain writes stay unbound (C10)`, {
            file: tool.file,
            pointer: "/ui",
          });
        const resource = String(ui.resource);
        if (typeof activeUi[resource] !== "string")
          report(
            `${name} binds UI resource ${resource}, but ` +
              `${ctx.line?.file ?? projectLayout.lineFile} names no active URI for it`,
            { file: tool.file, pointer: "/ui/resource" },
          );
      }
      const vis = tool.doc.visibility;
      const appOnly = Array.isArray(vis) && vis.length === 1 && vis[0] === "app";
      if (tool.doc.kind === "app-only" && !appOnly)
        report(`${name} is app-only but its visibility is not ["app"]`, {
          file: tool.file,
          pointer: "/visibility",
        });
      if (tool.doc.kind !== "app-only" && appOnly)
        report(
          `${name} has visibility ["app"] but kind ${String(tool.doc.kind)}; use kind app-only`,
          { file: tool.file, pointer: "/kind" },
        );
    }
  },
});

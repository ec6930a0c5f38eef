import { isObject } from "../../json-schema/walk.js";
import { createRule } from "./rule.js";

/**
 * Annotations tell the truth about the tool's kind (C4): reads are read-only and non-destructive,
 * writes are not read-only.
 */
export const annotationsMatchKind = createRule({
  id: "ANNOTATIONS_CONTRADICT_KIND",
  severity: "error",
  summary: "readOnlyHint/destructiveHint agree with the tool's kind (C4).",
  check: (ctx, report) => {
    for (const tool of ctx.tools) {
      const a = tool.doc.annotations;
      if (!isObject(a)) continue;
      const name = String(tool.doc.name);
      if (tool.doc.kind === "read") {
        if (a.readOnlyHint !== true)
          report(`${name} is a read tool but readOnlyHint is not true`, {
            file: tool.file,
            pointer: "/annotations/readOnlyHint",
          });
        if (a.destructiveHint !== false)
          report(`${name} is a read tool but destructiveHint is not false`, {
            file: tool.file,
            pointer: "/annotations/destructiveHint",
          });
      } else if (tool.doc.kind === "write" || tool.doc.kind === "app-only") {
        if (a.readOnlyHint !== false)
          report(`${name} mutates state but readOnlyHint is not false`, {
            file: tool.file,
            pointer: "/annotations/readOnlyHint",
          });
      }
    }
  },
});

import { defineRule } from "../../diagnostics/rule.js";
import { isObject } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";

/**
 * Annotations tell the truth about the tool's kind (C4): reads are read-only and non-destructive,
 * writes are not read-only.
 */
export const annotationsMatchKind = generatorRule(
  defineRule({
    id: "ANNOTATIONS_CONTRADICT_KIND",
    family: "generator",
    severity: "error",
    summary: "readOnlyHint/destructiveHint agree with the tool's kind (C4).",
    message: {
      read: "{tool} is a read tool but {hint} is not {expected}",
      write: "{tool} mutates state but readOnlyHint is not false",
    },
  }),
  (ctx, report) => {
    for (const tool of ctx.tools) {
      const a = tool.doc.annotations;
      if (!isObject(a)) continue;
      const name = String(tool.doc.name);
      if (tool.doc.kind === "read") {
        if (a.readOnlyHint !== true)
          report(
            { variant: "read", tool: name, hint: "readOnlyHint", expected: true },
            { file: tool.file, pointer: "/annotations/readOnlyHint" },
          );
        if (a.destructiveHint !== false)
          report(
            { variant: "read", tool: name, hint: "destructiveHint", expected: false },
            { file: tool.file, pointer: "/annotations/destructiveHint" },
          );
      } else if (tool.doc.kind === "write" || tool.doc.kind === "app-only") {
        if (a.readOnlyHint !== false)
          report(
            { variant: "write", tool: name },
            { file: tool.file, pointer: "/annotations/readOnlyHint" },
          );
      }
    }
  },
);

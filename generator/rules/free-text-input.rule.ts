import { isFreeTextString } from "../../contract/schema-predicates.js";
import { defineRule } from "../../diagnostics/rule.js";
import { walkResolved } from "../../json-schema/deref.js";
import { isObject } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";

/**
 * A mutation must not accept chat free text (C5, G11): every string input of a write is
 * constrained.
 */
export const freeTextInput = generatorRule(
  defineRule({
    id: "FREE_TEXT_INPUT",
    family: "generator",
    severity: "error",
    summary:
      "Write tools accept no free-text strings: each string input needs enum, " +
      "const, pattern or format (C5, G11).",
    message:
      "{tool}: string input without enum/const/pattern/format lets chat free text reach the backend",
  }),
  (ctx, report) => {
    for (const tool of ctx.tools) {
      if (tool.doc.kind === "read" || !isObject(tool.doc.input)) continue;
      walkResolved(
        tool.doc.input,
        tool.id,
        { file: tool.file, pointer: "/input" },
        ctx.registry,
        (node, loc) => {
          if (isFreeTextString(node)) report({ tool: String(tool.doc.name) }, loc);
        },
      );
    }
  },
);

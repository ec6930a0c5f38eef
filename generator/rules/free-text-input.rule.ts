import { freeTextKind } from "../../contract/schema-predicates.js";
import { defineRule } from "../../diagnostics/rule.js";
import { walkResolved } from "../../json-schema/deref.js";
import { isObject } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";

/**
 * A mutation must not accept chat free text (C5, G11): every string input of a write is
 * constrained, and a pattern counts only when it rejects ordinary prose.
 */
export const freeTextInput = generatorRule(
  defineRule({
    id: "FREE_TEXT_INPUT",
    family: "generator",
    severity: "error",
    summary:
      "Write tools accept no free-text strings: each string input needs enum, " +
      "const, format or a pattern that rejects ordinary prose (C5, G11).",
    message: {
      unconstrained:
        "{tool}: string input without enum/const/pattern/format lets chat free text reach the backend",
      prose:
        "{tool}: string input pattern {pattern:json} accepts ordinary prose, so chat free text reaches the backend",
    },
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
          const kind = freeTextKind(node);
          const name = String(tool.doc.name);
          if (kind === "unconstrained") report({ variant: kind, tool: name }, loc);
          else if (kind === "prose")
            report({ variant: kind, tool: name, pattern: String(node.pattern) }, loc);
        },
      );
    }
  },
);

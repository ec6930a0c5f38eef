import { isOpenObject } from "../../contract-model/schema-predicates.js";
import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule.js";
import { walkResolved } from "../../json-schema/deref.js";
import { isObject } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";

/** Every object in a tool's input rejects unknown properties (C5): top level and nested. */
export const closedInput = generatorRule(
  defineRule({
    id: "INPUT_NOT_CLOSED",
    family: "generator",
    severity: "error",
    summary: "Tool inputs (and every object inside them) set additionalProperties:false (C5).",
    message: "{tool}: input object accepts unknown properties; set additionalProperties:false",
  }),
  (ctx, report) => {
    for (const tool of ctx.tools) {
      const input = tool.doc.input;
      if (!isObject(input)) continue;
      walkResolved(
        input,
        tool.id,
        { file: tool.file, pointer: "/input" },
        ctx.registry,
        (node, loc) => {
          if (isOpenObject(node))
            report(
              { tool: String(tool.doc.name) },
              { ...loc, pointer: pointerJoin(loc.pointer ?? "", "additionalProperties") },
            );
        },
      );
    }
  },
);

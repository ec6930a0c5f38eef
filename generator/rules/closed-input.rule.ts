import { isOpenObject } from "../../contract/schema-predicates.js";
import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { walkResolved } from "../../json-schema/deref.js";
import { isObject } from "../../json-schema/walk.js";
import { createRule } from "./rule.js";

/** Every object in a tool's input rejects unknown properties (C5): top level and nested. */
export const closedInput = createRule({
  id: "INPUT_NOT_CLOSED",
  severity: "error",
  summary: "Tool inputs (and every object inside them) set additionalProperties:false (C5).",
  check: (ctx, report) => {
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
              `${String(tool.doc.name)}: input object accepts unknown ` +
                `properties; set additionalProperties:false`,
              { ...loc, pointer: pointerJoin(loc.pointer ?? "", "additionalProperties") },
            );
        },
      );
    }
  },
});

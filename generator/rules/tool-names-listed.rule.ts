import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule.js";
import { toolReferenceKeyword } from "../../json-schema/keywords.js";
import { walkSchema } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/**
 * The set of tool names is written once, by the tool files themselves: a schema that names tools
 * marks itself with `x-skillpilot-tool-reference: true` and the generator fills its `enum` from
 * `schemas/tools/`. A hand-kept list goes stale on the next rename (a new tool outside it cannot be
 * named; a removed one stays allowed), so any other enum of tool names is refused.
 */
export const toolNamesListed = generatorRule(
  defineRule({
    id: "TOOL_NAMES_LISTED",
    family: "generator",
    severity: "error",
    summary:
      "Tool names are listed only by the tool files: a schema naming tools is marked " +
      "x-skillpilot-tool-reference and the generator derives its enum.",
    message: {
      byHand:
        "this enum lists tool names by hand ({names}): reference the common ToolName definition, or mark the schema with " +
        `"${toolReferenceKeyword}": true and drop the enum`,
      marked: `a schema marked "${toolReferenceKeyword}" gets its enum from schemas/tools/: remove its {keyword}`,
      value: `"${toolReferenceKeyword}" takes the value true`,
    },
  }),
  (ctx, report) => {
    const names = new Set(
      ctx.tools.map((t) => t.doc.name).filter((n): n is string => typeof n === "string"),
    );
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        if (toolReferenceKeyword in node) {
          const at = { file: root.file, pointer: pointerJoin(pointer, toolReferenceKeyword) };
          if (node[toolReferenceKeyword] !== true) report({ variant: "value" }, at);
          for (const keyword of ["enum", "const"])
            if (keyword in node)
              report(
                { variant: "marked", keyword },
                { file: root.file, pointer: pointerJoin(pointer, keyword) },
              );
          return;
        }
        const values = node.enum;
        if (!Array.isArray(values) || values.length < 2) return;
        if (values.every((v) => typeof v === "string" && names.has(v)))
          report(
            {
              variant: "byHand",
              names: values.slice(0, 3).join(", ") + (values.length > 3 ? ", …" : ""),
            },
            { file: root.file, pointer: pointerJoin(pointer, "enum") },
          );
      });
  },
);

import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { walkSchema } from "../../json-schema/walk.js";
import { createRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/**
 * Every `pattern` and `patternProperties` key compiles as a Unicode regular expression (as Ajv
 * compiles it).
 */
export const invalidPattern = createRule({
  id: "SCHEMA_PATTERN_INVALID",
  severity: "error",
  summary: "A pattern is not a valid (Unicode) regular expression.",
  check: (ctx, report) => {
    const bad = (source: string) => {
      try {
        new RegExp(source, "u");
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    };
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        if (typeof node.pattern === "string") {
          const why = bad(node.pattern);
          if (why)
            report(`pattern ${JSON.stringify(node.pattern)} does not compile: ${why}`, {
              file: root.file,
              pointer: pointerJoin(pointer, "pattern"),
            });
        }
        if (node.patternProperties && typeof node.patternProperties === "object")
          for (const key of Object.keys(node.patternProperties)) {
            const why = bad(key);
            if (why)
              report(`patternProperties key ${JSON.stringify(key)} does not compile: ${why}`, {
                file: root.file,
                pointer: pointerJoin(pointer, "patternProperties", key),
              });
          }
      });
  },
});

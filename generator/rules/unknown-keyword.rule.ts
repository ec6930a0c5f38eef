import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { knownKeywords } from "../../json-schema/keywords.js";
import { walkSchema } from "../../json-schema/walk.js";
import { createRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/**
 * Strict mode: a keyword outside the 2020-12 vocabularies is almost always a typo that silently
 * validates nothing.
 */
export const unknownKeyword = createRule({
  id: "UNKNOWN_KEYWORD",
  severity: "error",
  summary: "Schemas use only JSON Schema 2020-12 keywords (strict mode).",
  check: (ctx, report) => {
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        for (const key of Object.keys(node))
          if (!knownKeywords.has(key))
            report(`unknown keyword ${JSON.stringify(key)} (strict mode)`, {
              file: root.file,
              pointer: pointerJoin(pointer, key),
            });
      });
  },
});

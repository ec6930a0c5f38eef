import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule.js";
import { extensionKeywords, knownKeywords } from "../../json-schema/keywords.js";
import { walkSchema } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/**
 * Strict mode: a keyword outside the 2020-12 vocabularies is almost always a typo that silently
 * validates nothing.
 */
export const unknownKeyword = generatorRule(
  defineRule({
    id: "UNKNOWN_KEYWORD",
    family: "generator",
    severity: "error",
    summary:
      "Schemas use only JSON Schema 2020-12 keywords and the contract's own x-skillpilot-tool-reference (strict mode).",
    message: "unknown keyword {keyword:json} (strict mode)",
  }),
  (ctx, report) => {
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        for (const keyword of Object.keys(node))
          if (!knownKeywords.has(keyword) && !extensionKeywords.has(keyword))
            report({ keyword }, { file: root.file, pointer: pointerJoin(pointer, keyword) });
      });
  },
);

import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule.js";
import { walkSchema } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/** `prefixItems` (tuples) has no faithful TypeScript output in our type emitter; use objects. */
export const prefixItems = generatorRule(
  defineRule({
    id: "PREFIX_ITEMS_UNSUPPORTED",
    family: "generator",
    severity: "error",
    summary: "prefixItems (tuples) is not supported: model the data as an object.",
    message: "prefixItems is not supported; use an object with named properties",
  }),
  (ctx, report) => {
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        if ("prefixItems" in node)
          report({}, { file: root.file, pointer: pointerJoin(pointer, "prefixItems") });
      });
  },
);

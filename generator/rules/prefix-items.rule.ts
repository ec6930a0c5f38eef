import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { walkSchema } from "../../json-schema/walk.js";
import { createRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/** `prefixItems` (tuples) has no faithful TypeScript output in our type emitter; use objects. */
export const prefixItems = createRule({
  id: "PREFIX_ITEMS_UNSUPPORTED",
  severity: "error",
  summary: "prefixItems (tuples) is not supported: model the data as an object.",
  check: (ctx, report) => {
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        if ("prefixItems" in node)
          report("prefixItems is not supported; use an object with named properties", {
            file: root.file,
            pointer: pointerJoin(pointer, "prefixItems"),
          });
      });
  },
});

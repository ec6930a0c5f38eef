import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule.js";
import { walkSchema } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/**
 * Every `pattern` and `patternProperties` key compiles as a Unicode regular expression (as Ajv
 * compiles it).
 */
export const invalidPattern = generatorRule(
  defineRule({
    id: "SCHEMA_PATTERN_INVALID",
    family: "generator",
    severity: "error",
    summary: "A pattern is not a valid (Unicode) regular expression.",
    message: {
      pattern: "pattern {pattern:json} does not compile: {reason}",
      key: "patternProperties key {key:json} does not compile: {reason}",
    },
  }),
  (ctx, report) => {
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
          const reason = bad(node.pattern);
          if (reason)
            report(
              { variant: "pattern", pattern: node.pattern, reason },
              { file: root.file, pointer: pointerJoin(pointer, "pattern") },
            );
        }
        if (node.patternProperties && typeof node.patternProperties === "object")
          for (const key of Object.keys(node.patternProperties)) {
            const reason = bad(key);
            if (reason)
              report(
                { variant: "key", key, reason },
                { file: root.file, pointer: pointerJoin(pointer, "patternProperties", key) },
              );
          }
      });
  },
);

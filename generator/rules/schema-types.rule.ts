import { closest } from "fastest-levenshtein";
import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule.js";
import { type JsonObject, walkSchema } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/** The seven JSON Schema types. */
const TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"] as const;

/** The declared `type` of a schema node, as a list (empty when it has none). */
function declaredTypes(node: JsonObject): unknown[] {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type) ? node.type : [];
}

/**
 * A misspelled type (`"objekt"`) would otherwise surface as four meta-schema lines about `anyOf`
 * and `const`, none of which says what was meant.
 */
export const unknownType = generatorRule(
  defineRule({
    id: "TYPE_UNKNOWN",
    family: "generator",
    severity: "error",
    summary: 'A schema names a type that JSON Schema does not have (e.g. "objekt").',
    message: 'unknown type {type:json}; did you mean "{suggestion}"?',
  }),
  (ctx, report) => {
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        const list = Array.isArray(node.type);
        declaredTypes(node).forEach((type, i) => {
          if (typeof type !== "string" || (TYPES as readonly string[]).includes(type)) return;
          report(
            { type, suggestion: closest(type, [...TYPES]) },
            { file: root.file, pointer: pointerJoin(pointer, "type", ...(list ? [i] : [])) },
          );
        });
      });
  },
);

/** The type each type-specific keyword constrains (`number` covers `integer`). */
const KEYWORD_TYPE: Readonly<Record<string, "number" | "string" | "array" | "object">> = {
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  minItems: "array",
  maxItems: "array",
  uniqueItems: "array",
  items: "array",
  prefixItems: "array",
  contains: "array",
  minContains: "array",
  maxContains: "array",
  minProperties: "object",
  maxProperties: "object",
  required: "object",
  properties: "object",
  patternProperties: "object",
  additionalProperties: "object",
  propertyNames: "object",
  dependentRequired: "object",
  dependentSchemas: "object",
};

/** The keyword that says the same for another type, where there is one (`minimum` → `minLength`). */
const COUNTERPART: Readonly<Record<string, Partial<Record<string, string>>>> = {
  minimum: { string: "minLength", array: "minItems", object: "minProperties" },
  maximum: { string: "maxLength", array: "maxItems", object: "maxProperties" },
  minLength: { number: "minimum", array: "minItems", object: "minProperties" },
  maxLength: { number: "maximum", array: "maxItems", object: "maxProperties" },
  minItems: { number: "minimum", string: "minLength", object: "minProperties" },
  maxItems: { number: "maximum", string: "maxLength", object: "maxProperties" },
  minProperties: { number: "minimum", string: "minLength", array: "minItems" },
  maxProperties: { number: "maximum", string: "maxLength", array: "maxItems" },
};

const noun = { number: "numbers", string: "strings", array: "arrays", object: "objects" } as const;

/**
 * A keyword for another type than the one the schema declares (`minimum` on a string) validates
 * nothing: the fix is to remove it (or use the keyword meant for that type), not to change the type.
 */
export const keywordWrongType = generatorRule(
  defineRule({
    id: "KEYWORD_WRONG_TYPE",
    family: "generator",
    severity: "error",
    summary:
      "A keyword constrains another type than the schema declares (e.g. minimum on a string), " +
      "so it would validate nothing.",
    message: {
      remove: "{keyword} applies to {applies}, but this schema's type is {type}: remove {keyword}",
      counterpart:
        "{keyword} applies to {applies}, but this schema's type is {type}: remove {keyword}, " +
        "or use {instead} for a {type}",
    },
  }),
  (ctx, report) => {
    for (const root of schemaRoots(ctx))
      walkSchema(root.schema, root.pointer, (node, pointer) => {
        const types = declaredTypes(node).filter((t): t is string => typeof t === "string");
        if (types.length === 0 || !types.every((t) => (TYPES as readonly string[]).includes(t)))
          return;
        const covers = new Set(types.map((t) => (t === "integer" ? "number" : t)));
        for (const keyword of Object.keys(node)) {
          const applies = KEYWORD_TYPE[keyword];
          if (!applies || covers.has(applies)) continue;
          const type = types.join(" or ");
          const instead = types.length === 1 ? COUNTERPART[keyword]?.[[...covers][0]] : undefined;
          const location = { file: root.file, pointer: pointerJoin(pointer, keyword) };
          if (instead)
            report(
              { variant: "counterpart", keyword, applies: noun[applies], type, instead },
              location,
            );
          else report({ variant: "remove", keyword, applies: noun[applies], type }, location);
        }
      });
  },
);

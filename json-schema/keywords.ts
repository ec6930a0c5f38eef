/** JSON Schema 2020-12 keywords whose value is one subschema. */
export const singleSchemaKeywords = [
  "not",
  "if",
  "then",
  "else",
  "items",
  "contains",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
] as const;

/** Keywords whose value is an array of subschemas. */
export const schemaArrayKeywords = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;

/** Keywords whose value is a map of name to subschema. */
export const schemaMapKeywords = [
  "properties",
  "patternProperties",
  "$defs",
  "dependentSchemas",
] as const;

/**
 * Every keyword of the 2020-12 vocabularies (core, applicator, unevaluated, validation, format,
 * meta-data, content).
 */
export const knownKeywords: ReadonlySet<string> = new Set([
  "$schema",
  "$id",
  "$ref",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  ...singleSchemaKeywords,
  ...schemaArrayKeywords,
  ...schemaMapKeywords,
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "format",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "contentEncoding",
  "contentMediaType",
]);

/** Annotation-only keywords: safe to merge beside an inlined `$ref` target. */
export const annotationKeywords: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "$comment",
]);

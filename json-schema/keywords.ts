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

/**
 * The contract's own annotation keyword: `true` marks a string schema whose values name tools of
 * the contract. Its `enum` is never written by hand; the generator fills it from `schemas/tools/`,
 * and the server names in such a place only tools the caller's definitions hold. Hosts ignore it
 * (an unknown keyword is an annotation in JSON Schema 2020-12); Contract-Diff reads it.
 */
export const toolReferenceKeyword = "x-skillpilot-tool-reference";

/** Keywords outside the 2020-12 vocabularies that the contract's schemas may use. */
export const extensionKeywords: ReadonlySet<string> = new Set([toolReferenceKeyword]);

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

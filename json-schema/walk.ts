import { pointerJoin } from "../diagnostics/diagnostic.js";
import { schemaArrayKeywords, schemaMapKeywords, singleSchemaKeywords } from "./keywords.js";

/** A JSON value that is an object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Visit `schema` and every subschema reachable through applicator keywords (not through `$ref`),
 * depth first, with the JSON pointer of each. Boolean subschemas are skipped.
 */
export function walkSchema(
  schema: unknown,
  pointer: string,
  visit: (node: JsonObject, pointer: string) => void,
): void {
  if (!isObject(schema)) return;
  visit(schema, pointer);
  for (const k of singleSchemaKeywords)
    if (k in schema) walkSchema(schema[k], pointerJoin(pointer, k), visit);
  for (const k of schemaArrayKeywords) {
    const arr = schema[k];
    if (Array.isArray(arr))
      for (const [i, s] of arr.entries()) walkSchema(s, pointerJoin(pointer, k, i), visit);
  }
  for (const k of schemaMapKeywords) {
    const map = schema[k];
    if (isObject(map))
      for (const name of Object.keys(map))
        walkSchema(map[name], pointerJoin(pointer, k, name), visit);
  }
}

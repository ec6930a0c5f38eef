/**
 * Gate predicates on single JSON Schema nodes, shared by the generator's authoring rules (located
 * in the schema sources) and the contract lint (located in a snapshot or any tools/list). Free text
 * is judged by behaviour, field by field, in text/free-text.ts.
 */

type SchemaNode = Record<string, unknown>;

/** An object node that accepts properties it does not name (C5, L8). */
export function isOpenObject(node: SchemaNode): boolean {
  const isObjectSchema =
    node.type === "object" || (typeof node.properties === "object" && node.properties !== null);
  return isObjectSchema && node.additionalProperties !== false;
}

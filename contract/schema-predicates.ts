/**
 * Gate predicates on single JSON Schema nodes, shared by the generator's authoring rules (located
 * in the schema sources) and the contract lint (located in a snapshot or any tools/list).
 */

type SchemaNode = Record<string, unknown>;

const textConstraints = ["enum", "const", "pattern", "format"] as const;

/**
 * A string-typed node with no enum, const, pattern or format: it would let chat free text through
 * (C5, G11).
 */
export function isFreeTextString(node: SchemaNode): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  return types.includes("string") && !textConstraints.some((k) => k in node);
}

/** An object node that accepts properties it does not name (C5, L8). */
export function isOpenObject(node: SchemaNode): boolean {
  const isObjectSchema =
    node.type === "object" || (typeof node.properties === "object" && node.properties !== null);
  return isObjectSchema && node.additionalProperties !== false;
}

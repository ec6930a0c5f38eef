import { pointerJoin, type Diagnostic } from "../diagnostics/diagnostic.js";
import { dereference } from "../json-schema/deref.js";
import {
  annotationKeywords,
  schemaArrayKeywords,
  schemaMapKeywords,
  singleSchemaKeywords,
} from "../json-schema/keywords.js";
import { SchemaRegistry } from "../json-schema/registry.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import { isObject, type JsonObject, type Schema } from "../json-schema/schema-facts.js";

const UNRESOLVED_REF = defineRule({
  id: "CONTRACT_UNRESOLVED_REF",
  family: "diff",
  severity: "error",
  summary: "A compared schema has a $ref the diff cannot resolve locally (remote or dangling).",
  message:
    "{file}: $ref {ref} cannot be resolved inside the schema; the diff only follows local references",
});

const hasRef = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(hasRef)
    : isObject(value)
      ? "$ref" in value || Object.values(value).some(hasRef)
      : false;

/**
 * Inline the local `$ref`s of one schema (a tools/list document may use `$defs`; our snapshot is
 * already inlined) so that a `$ref` refactoring compares equal to its inlined form. Reuses the
 * generator's dereferencer with a throw-away registry holding just this schema.
 */
export function inlineRefs(
  schema: unknown,
  file: string,
  pointer: string,
  diagnostics: Diagnostic[],
): unknown {
  if (!hasRef(schema)) return schema;
  const id = "https://contract-diff.invalid/schema";
  const json = isObject(schema) ? { ...schema, $id: id } : schema;
  const { registry } = SchemaRegistry.build([{ file, text: "", json, sha256: "" }]);
  // An unresolvable (remote or dangling) $ref would inline as {} and accept anything: refuse the
  // input instead.
  const check = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [i, v] of node.entries()) check(v, `${at}/${i}`);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === "string" && !registry.resolve(node.$ref, id).ok)
      diagnostics.push(
        diagnose(UNRESOLVED_REF, { file, ref: node.$ref }, { file, pointer: `${at}/$ref` }),
      );
    for (const [k, v] of Object.entries(node))
      if (k !== "const" && k !== "enum" && k !== "default" && k !== "examples")
        check(v, pointerJoin(at, k));
  };
  check(json, pointer);
  return dereference(json, id, { file, pointer }, registry, diagnostics);
}

/**
 * The comparable form of a schema: annotation keywords (title, description, examples, …) dropped
 * everywhere, `$schema`/`$id`/`$defs` gone, a single `type` array folded to a string, keys sorted.
 * Two schemas with the same comparable form accept exactly the same values.
 */
export function comparable(schema: unknown): Schema {
  if (typeof schema === "boolean") return schema;
  if (!isObject(schema)) return true;
  const out: JsonObject = {};
  // Keys are visited in sorted order, so the result is canonical without a second pass.
  for (const k of Object.keys(schema).sort()) {
    const v = schema[k];
    if (
      annotationKeywords.has(k) ||
      k === "$schema" ||
      k === "$id" ||
      k === "$defs" ||
      k === "definitions" ||
      k === "$anchor"
    )
      continue;
    if ((singleSchemaKeywords as readonly string[]).includes(k))
      out[k] = Array.isArray(v) ? v.map(comparable) : comparable(v); // draft-07 tuple `items`
    else if ((schemaArrayKeywords as readonly string[]).includes(k) && Array.isArray(v))
      out[k] = v.map(comparable);
    else if ((schemaMapKeywords as readonly string[]).includes(k) && isObject(v))
      out[k] = Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((n) => [n, comparable(v[n])]),
      );
    else if (k === "type" && Array.isArray(v) && v.length === 1) out[k] = v[0];
    else if (k === "required" && Array.isArray(v)) out[k] = [...new Set(v as string[])].sort();
    else out[k] = v;
  }
  return out;
}

import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import { pointerJoin } from "../diagnostics/diagnostic.js";
import { pointerSegments } from "../diagnostics/locate.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import {
  annotationKeywords,
  schemaArrayKeywords,
  schemaMapKeywords,
  singleSchemaKeywords,
} from "./keywords.js";
import type { SchemaRegistry } from "./registry.js";
import { isObject, type JsonObject } from "./walk.js";

export const REF_CYCLE = defineRule({
  id: "REF_CYCLE",
  family: "generator",
  severity: "error",
  summary: "Tool schemas must be finite: a $ref cycle cannot be inlined for MCP clients.",
  message: "$ref {ref} refers back to itself through {depth} level(s)",
});

const dropped = new Set(["$id", "$schema", "$defs", "$anchor", "$dynamicAnchor"]);

/**
 * Inline every `$ref` of `schema` (located at `location` in document `baseId`) into one
 * self-contained schema, the shape MCP clients receive. Shared definitions keep their content;
 * `$id`/`$schema`/`$defs` are dropped. A cycle is reported; a cyclic or unresolvable `$ref` becomes
 * `{}` (unresolvable ones are reported by the schema-refs rule).
 */
export function dereference(
  schema: unknown,
  baseId: string,
  location: Location,
  registry: SchemaRegistry,
  diagnostics: Diagnostic[],
): unknown {
  const inline = (node: unknown, base: string, loc: Location, stack: string[]): unknown => {
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    let target: JsonObject | undefined;
    if (typeof node.$ref === "string") {
      const r = registry.resolve(node.$ref, base);
      const at = { ...loc, pointer: pointerJoin(loc.pointer ?? "", "$ref") };
      if (!r.ok) return {}; // reported by the schema-refs rule, where it is written
      const key = `${r.target.docId}#${r.target.pointer}`;
      if (stack.includes(key)) {
        diagnostics.push(diagnose(REF_CYCLE, { ref: node.$ref, depth: stack.length }, at));
        return {};
      }
      const inlined = inline(
        r.target.node,
        r.target.docId,
        { file: r.target.file, pointer: r.target.pointer },
        [...stack, key],
      );
      target = isObject(inlined) ? inlined : undefined;
      if (!target) return inlined;
    }
    const siblings = Object.keys(node).filter((k) => k !== "$ref" && !dropped.has(k));
    for (const k of siblings)
      out[k] = inlineKeyword(
        k,
        node[k],
        base,
        { ...loc, pointer: pointerJoin(loc.pointer ?? "", k) },
        stack,
      );
    if (!target) return out;
    if (siblings.every((k) => annotationKeywords.has(k))) return { ...target, ...out };
    return { ...out, allOf: [...(Array.isArray(out.allOf) ? out.allOf : []), target] };
  };

  const inlineKeyword = (
    k: string,
    value: unknown,
    base: string,
    loc: Location,
    stack: string[],
  ): unknown => {
    if ((singleSchemaKeywords as readonly string[]).includes(k))
      return inline(value, base, loc, stack);
    if ((schemaArrayKeywords as readonly string[]).includes(k) && Array.isArray(value))
      return value.map((s, i) =>
        inline(s, base, { ...loc, pointer: pointerJoin(loc.pointer ?? "", i) }, stack),
      );
    if ((schemaMapKeywords as readonly string[]).includes(k) && isObject(value)) {
      const m: JsonObject = {};
      for (const name of Object.keys(value))
        m[name] = inline(
          value[name],
          base,
          { ...loc, pointer: pointerJoin(loc.pointer ?? "", name) },
          stack,
        );
      return m;
    }
    return value;
  };

  return inline(schema, baseId, location, []);
}

/**
 * Visit every subschema reachable from `schema`, following `$ref`s across documents (each target
 * once), with the file and pointer where it is written. Unresolvable refs are skipped silently:
 * `dereference` reports them.
 */
export function walkResolved(
  schema: unknown,
  baseId: string,
  location: Location,
  registry: SchemaRegistry,
  visit: (node: JsonObject, location: Location, baseId: string) => void,
): void {
  const seen = new Set<string>();
  const go = (node: unknown, base: string, loc: Location): void => {
    if (!isObject(node)) return;
    visit(node, loc, base);
    if (typeof node.$ref === "string") {
      const r = registry.resolve(node.$ref, base);
      if (r.ok) {
        const key = `${r.target.docId}#${r.target.pointer}`;
        if (!seen.has(key)) {
          seen.add(key);
          go(r.target.node, r.target.docId, { file: r.target.file, pointer: r.target.pointer });
        }
      }
    }
    const p = loc.pointer ?? "";
    for (const k of singleSchemaKeywords)
      if (k in node) go(node[k], base, { ...loc, pointer: pointerJoin(p, k) });
    for (const k of schemaArrayKeywords) {
      const arr = node[k];
      if (Array.isArray(arr))
        for (const [i, s] of arr.entries()) go(s, base, { ...loc, pointer: pointerJoin(p, k, i) });
    }
    for (const k of ["properties", "patternProperties", "dependentSchemas"] as const) {
      const map = node[k];
      if (isObject(map))
        for (const name of Object.keys(map))
          go(map[name], base, { ...loc, pointer: pointerJoin(p, k, name) });
    }
  };
  go(schema, baseId, location);
}

/**
 * Where the subschema at `pointer` of `dereference(schema, …)` is written in the sources: the
 * pointer is followed through the source, into a `$ref`'s target wherever `dereference` inlined it
 * (merged beside annotations, or appended to `allOf`). A subschema that is a bare `$ref` is located
 * at its target, where its constraints are written. Undefined when a `$ref` on the way does not
 * resolve or refers back to itself.
 */
export function locateInSource(
  schema: unknown,
  baseId: string,
  location: Location,
  registry: SchemaRegistry,
  pointer: string,
): Location | undefined {
  let node = schema;
  let base = baseId;
  let loc = location;
  const seen = new Set<string>();
  // Moves to the target of the current node's $ref; false when it does not resolve or cycles.
  const follow = (ref: string): boolean => {
    const r = registry.resolve(ref, base);
    if (!r.ok) return false;
    const key = `${r.target.docId}#${r.target.pointer}`;
    if (seen.has(key)) return false;
    seen.add(key);
    node = r.target.node;
    base = r.target.docId;
    loc = { file: r.target.file, pointer: r.target.pointer };
    return true;
  };
  const refOf = (n: unknown) => (isObject(n) && typeof n.$ref === "string" ? n : undefined);
  const merges = (n: JsonObject) =>
    Object.keys(n).every((k) => k === "$ref" || dropped.has(k) || annotationKeywords.has(k));
  const segments = pointerSegments(pointer);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const withRef = refOf(node);
    if (withRef && merges(withRef) && !(segment in withRef)) {
      if (!follow(withRef.$ref as string)) return undefined;
      i--; // the same segment, now in the target
      continue;
    }
    const own = withRef && Array.isArray(withRef.allOf) ? withRef.allOf.length : 0;
    if (withRef && !merges(withRef) && segment === "allOf" && segments[i + 1] === String(own)) {
      if (!follow(withRef.$ref as string)) return undefined;
      i++; // `allOf/<n>` is the target itself
      continue;
    }
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
    loc = { ...loc, pointer: pointerJoin(loc.pointer ?? "", segment) };
  }
  for (let n = refOf(node); n && merges(n); n = refOf(node))
    if (!follow(n.$ref as string)) return undefined;
  return loc;
}

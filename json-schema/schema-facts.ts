import { isObject, type JsonObject } from "./walk.js";

/** A JSON Schema node as the diff sees it: an object or a boolean schema. */
export type Schema = JsonObject | boolean;

/** The JSON type names of draft 2020-12, in the order samples prefer them. */
export const jsonTypes = [
  "object",
  "array",
  "string",
  "integer",
  "number",
  "boolean",
  "null",
] as const;
export type JsonType = (typeof jsonTypes)[number];

/** JSON type of a value (`integer` for whole numbers). */
export function typeOfValue(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "object") return "object";
  return typeof value as JsonType;
}

/** Values a schema pins with `const`/`enum`, or undefined when it does not enumerate. */
export function enumerated(schema: JsonObject): unknown[] | undefined {
  if ("const" in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  return undefined;
}

/**
 * The types a schema admits judging by `type`, `const` and `enum` only. `number` includes
 * `integer`; a schema without any of them admits every type.
 */
export function declaredTypes(schema: JsonObject): Set<JsonType> {
  const values = enumerated(schema);
  let types: Set<JsonType>;
  if (values) types = new Set(values.map(typeOfValue));
  else if (typeof schema.type === "string") types = new Set([schema.type as JsonType]);
  else if (Array.isArray(schema.type)) types = new Set(schema.type as JsonType[]);
  else types = new Set(jsonTypes);
  if (types.has("number")) types.add("integer");
  if (values && typeof schema.type !== "undefined") {
    const declared = declaredTypes({ type: schema.type });
    for (const t of [...types]) if (!declared.has(t)) types.delete(t);
  }
  return types;
}

/** True when a type set admits values of type `t` (`integer` values are numbers too). */
export function admitsType(types: ReadonlySet<JsonType>, t: JsonType): boolean {
  return types.has(t) || (t === "integer" && types.has("number"));
}

/** Deep equality of JSON values, insensitive to object key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Schema-valued object keywords, so a missing `properties` reads as `{}`. */
export function propertiesOf(schema: JsonObject): Record<string, Schema> {
  return isObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
}

/** `required` as a set. */
export function requiredOf(schema: JsonObject): Set<string> {
  return new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
}

/**
 * Properties an object schema forbids outright: `properties: {p: false}`, or `not: {required: [p]}`
 * (the way exclusive `oneOf` branches say "not this one").
 */
export function forbiddenOf(schema: JsonObject): Set<string> {
  const out = new Set(
    Object.entries(propertiesOf(schema))
      .filter(([, s]) => s === false)
      .map(([p]) => p),
  );
  const not = schema.not;
  if (isObject(not) && Object.keys(not).length === 1 && requiredOf(not).size === 1)
    out.add([...requiredOf(not)][0]!);
  return out;
}

/** The schema unknown object properties must satisfy (`true` when open). */
export function additionalOf(schema: JsonObject): Schema {
  const a = schema.additionalProperties;
  return a === undefined ? true : (a as Schema);
}

/** True when a schema accepts every value (`true`, `{}`). */
export function acceptsAnything(schema: Schema): boolean {
  return schema === true || (isObject(schema) && Object.keys(schema).length === 0);
}

export { isObject, type JsonObject };

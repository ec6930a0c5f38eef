import type { JsonObject } from "../../../json-schema/schema-facts.js";
import type { Judgement } from "./judgement.js";
import type { EditKind } from "./tool-model.js";

/**
 * One side of a keyword edit: the schema at the edited place (`x`), and what it needs beside it at
 * the root of the schema (`$defs` entries, root keywords). Built per slot name, so several edits
 * can sit side by side in one schema.
 */
export interface Fragment {
  x: JsonObject;
  defs?: Record<string, JsonObject>;
  root?: JsonObject;
}
type FragmentOf = JsonObject | ((slot: string) => Fragment);

/** A minimal before/after pair for one keyword edit, and how each schema side judges it. */
export interface KeywordEdit {
  before: FragmentOf;
  after: FragmentOf;
  inputSchema: Judgement;
  outputSchema: Judgement;
}

/** The incompatibility classes of the schema comparison, as the map names them. */
type Gap =
  | "type"
  | "enum"
  | "const"
  | "pattern"
  | "format"
  | "bound"
  | "required"
  | "branch"
  | "opaque"
  | "closed";

// An input must keep accepting old calls: a narrowing is breaking under these rules.
const inputNarrowed: Record<Gap, string> = {
  type: "INPUT_TYPE_NARROWED",
  enum: "INPUT_ENUM_NARROWED",
  const: "INPUT_CONST_CHANGED",
  pattern: "INPUT_PATTERN_NARROWED",
  format: "INPUT_FORMAT_NARROWED",
  bound: "INPUT_BOUND_NARROWED",
  required: "INPUT_REQUIRED_ADDED",
  branch: "INPUT_BRANCH_REMOVED",
  opaque: "INPUT_SCHEMA_NARROWED",
  closed: "INPUT_ADDITIONAL_PROPERTIES_CLOSED",
};
// An output must keep satisfying old clients: a widening is breaking under these rules.
const outputWidened: Record<Gap, string> = {
  type: "OUTPUT_TYPE_CHANGED",
  enum: "OUTPUT_ENUM_WIDENED",
  const: "OUTPUT_CONST_CHANGED",
  pattern: "OUTPUT_PATTERN_WIDENED",
  format: "OUTPUT_FORMAT_CHANGED",
  bound: "OUTPUT_BOUND_WIDENED",
  required: "OUTPUT_PROPERTY_NO_LONGER_REQUIRED",
  branch: "OUTPUT_BRANCH_ADDED",
  opaque: "OUTPUT_SCHEMA_WIDENED",
  closed: "OUTPUT_ADDITIONAL_PROPERTIES_OPENED",
};

/** The edit accepts fewer values: breaking on inputs, a PATCH narrowing on outputs. */
const narrows = (gap: Gap) => ({
  inputSchema: { rule: inputNarrowed[gap] },
  outputSchema: { rule: "OUTPUT_NARROWED" },
});
/** The edit accepts more values: a MINOR widening on inputs, breaking on outputs. */
const widens = (gap: Gap) => ({
  inputSchema: { rule: "INPUT_WIDENED" },
  outputSchema: { rule: outputWidened[gap] },
});
/** The edit accepts other values: breaking both ways. */
const changes = (gap: Gap) => ({
  inputSchema: { rule: inputNarrowed[gap] },
  outputSchema: { rule: outputWidened[gap] },
});
/** No accepted value changes. */
const same = (why: string) => ({ inputSchema: { notWire: why }, outputSchema: { notWire: why } });
/** Both sides judge the edit the same way. */
const both = (j: Judgement) => ({ inputSchema: j, outputSchema: j });

/**
 * The opaque-keyword check finds witnesses among sampled values only (one array sample per
 * schema): where none shows the gap, the rule still reports it, conservatively.
 */
const sampled =
  "the checker does not decide this keyword and no sampled array shows the gap, so it reports " +
  "the change conservatively";
const noWitness = (rule: string): Judgement => ({ rule, noWitness: sampled });

const S = { type: "string" };
const I = { type: "integer" };
const A = { type: "array", items: { type: "string" } };
const O = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } };
/** An array whose sample (two strings) satisfies `contains: {type: string}`. */
const UI = { type: "array", minItems: 2, prefixItems: [S] };
const A2 = { ...A, minItems: 2, contains: { type: "string" } };

type Edits = Partial<Record<EditKind, KeywordEdit>>;
const edit = (
  before: FragmentOf,
  after: FragmentOf,
  judge: Omit<KeywordEdit, "before" | "after">,
) => ({
  before,
  after,
  ...judge,
});

/** A numeric bound: `lo`, `hi` are two values, `host` the schema it bounds. */
function bound(host: JsonObject, key: string, lo: number, hi: number, lower: boolean): Edits {
  const at = (v: number) => ({ ...host, [key]: v });
  // A lower bound narrows as it rises, an upper bound as it falls.
  return {
    set: edit(host, at(lower ? hi : lo), narrows("bound")),
    unset: edit(at(lower ? hi : lo), host, widens("bound")),
    increase: edit(at(lo), at(hi), lower ? narrows("bound") : widens("bound")),
    decrease: edit(at(hi), at(lo), lower ? widens("bound") : narrows("bound")),
  };
}
/** The same for the keywords the checker reads as opaque (no dedicated gap class). */
function opaqueBound(host: JsonObject, key: string, lo: number, hi: number, lower: boolean): Edits {
  const at = (v: number) => ({ ...host, [key]: v });
  return {
    set: edit(host, at(lower ? hi : lo), narrows("opaque")),
    unset: edit(at(lower ? hi : lo), host, widens("opaque")),
    increase: edit(at(lo), at(hi), lower ? narrows("opaque") : widens("opaque")),
    decrease: edit(at(hi), at(lo), lower ? widens("opaque") : narrows("opaque")),
  };
}
/** A subschema keyword: set, unset, and replaced by another subschema. */
function sub(host: JsonObject, key: string, one: unknown, other: unknown, change: Gap): Edits {
  return {
    set: edit(host, { ...host, [key]: one }, narrows(change)),
    unset: edit({ ...host, [key]: one }, host, widens(change)),
    change: edit({ ...host, [key]: one }, { ...host, [key]: other }, changes(change)),
  };
}
const docs = (key: string, a: unknown, b: unknown, why: string): Edits => ({
  set: edit(S, { ...S, [key]: a }, same(why)),
  unset: edit({ ...S, [key]: a }, S, same(why)),
  change: edit({ ...S, [key]: a }, { ...S, [key]: b }, same(why)),
});
const docsList = (key: string, why: string): Edits => ({
  add: edit({ ...S, [key]: ["a"] }, { ...S, [key]: ["a", "b"] }, same(why)),
  remove: edit({ ...S, [key]: ["a", "b"] }, { ...S, [key]: ["a"] }, same(why)),
  reorder: edit({ ...S, [key]: ["a", "b"] }, { ...S, [key]: ["b", "a"] }, same(why)),
});
const flagDocs = (key: string, why: string): Edits => ({
  set: edit(S, { ...S, [key]: true }, same(why)),
  unset: edit({ ...S, [key]: true }, S, same(why)),
});
const root =
  (r: JsonObject): FragmentOf =>
  () => ({ x: S, root: r });
const unions = (key: "anyOf" | "oneOf"): Edits => {
  const two = { [key]: [S, I] };
  const three = { [key]: [S, I, { type: "boolean" }] };
  const narrowHost = { ...S, [key]: [{ minLength: 2 }, { const: "x" }] };
  return {
    set: edit(S, narrowHost, narrows("branch")),
    unset: edit(narrowHost, S, widens("branch")),
    add: edit(two, three, widens("branch")),
    remove: edit(three, two, narrows("branch")),
    reorder: edit(two, { [key]: [I, S] }, same("branch order: a union accepts the same values")),
  };
};
const ref = (slot: string, target: JsonObject, other?: JsonObject): Fragment => ({
  x: { $ref: `#/$defs/${slot}_def` },
  defs: { [`${slot}_def`]: target, ...(other ? { [`${slot}_other`]: other } : {}) },
});

const textDoc = "schema documentation (SCHEMA_DOCS_CHANGED reports it, PATCH)";
const dynamic =
  "dynamic references are not resolved (a documented limit): a change on the constraining side " +
  "is reported conservatively, and no validator resolves a sample against it";
const contentAnnotation =
  "an annotation in 2020-12: no validator asserts it, so no call or result changes";

/** How every keyword edit is built and judged. Keys are the model's keywords and edit kinds. */
export const keywordEdits: Record<string, Edits> = {
  type: {
    add: edit(S, { type: ["string", "integer"] }, widens("type")),
    remove: edit({ type: ["string", "integer"] }, S, narrows("type")),
    change: edit(S, I, changes("type")),
  },
  enum: {
    add: edit({ ...S, enum: ["a", "b"] }, { ...S, enum: ["a", "b", "c"] }, widens("enum")),
    remove: edit({ ...S, enum: ["a", "b", "c"] }, { ...S, enum: ["a", "b"] }, narrows("enum")),
    reorder: edit({ ...S, enum: ["a", "b"] }, { ...S, enum: ["b", "a"] }, same("enum order")),
  },
  const: sub(S, "const", "a", "b", "const"),
  pattern: sub(S, "pattern", "^[a-z]+$", "^[0-9]+$", "pattern"),
  format: sub(S, "format", "date", "email", "format"),
  minLength: bound(S, "minLength", 1, 3, true),
  maxLength: bound(S, "maxLength", 5, 10, false),
  minimum: bound(I, "minimum", 0, 5, true),
  exclusiveMinimum: bound(I, "exclusiveMinimum", 0, 5, true),
  maximum: bound(I, "maximum", 10, 20, false),
  exclusiveMaximum: bound(I, "exclusiveMaximum", 10, 20, false),
  multipleOf: {
    set: edit(I, { ...I, multipleOf: 2 }, narrows("bound")),
    unset: edit({ ...I, multipleOf: 2 }, I, widens("bound")),
    increase: edit({ ...I, multipleOf: 2 }, { ...I, multipleOf: 4 }, narrows("bound")),
    decrease: edit({ ...I, multipleOf: 4 }, { ...I, multipleOf: 2 }, widens("bound")),
  },
  minItems: bound(A, "minItems", 1, 3, true),
  maxItems: bound(A, "maxItems", 2, 4, false),
  uniqueItems: {
    set: edit(A, { ...A, uniqueItems: true }, narrows("bound")),
    unset: edit({ ...A, uniqueItems: true }, A, widens("bound")),
  },
  items: sub({ type: "array" }, "items", S, I, "type"),
  // Tuples are compared position by position: the gap is the class of the position's change.
  prefixItems: {
    set: edit(
      { ...A, minItems: 1 },
      { ...A, minItems: 1, prefixItems: [{ const: "x" }] },
      narrows("const"),
    ),
    unset: edit(
      { ...A, minItems: 1, prefixItems: [{ const: "x" }] },
      { ...A, minItems: 1 },
      widens("const"),
    ),
    add: edit(
      { ...A, minItems: 2, prefixItems: [S] },
      { ...A, minItems: 2, prefixItems: [S, { const: "x" }] },
      narrows("const"),
    ),
    remove: edit(
      { ...A, minItems: 2, prefixItems: [S, { const: "x" }] },
      { ...A, minItems: 2, prefixItems: [S] },
      widens("const"),
    ),
    reorder: edit(
      { ...A, minItems: 2, prefixItems: [S, { const: "x" }] },
      { ...A, minItems: 2, prefixItems: [{ const: "x" }, S] },
      changes("const"),
    ),
  },
  contains: sub({ ...A, minItems: 1 }, "contains", { minLength: 1 }, { maxLength: 0 }, "opaque"),
  minContains: opaqueBound(A2, "minContains", 2, 3, true),
  maxContains: opaqueBound(A2, "maxContains", 1, 2, false),
  unevaluatedItems: {
    set: edit(UI, { ...UI, unevaluatedItems: I }, narrows("opaque")),
    unset: edit({ ...UI, unevaluatedItems: I }, UI, widens("opaque")),
    change: edit(
      { ...UI, unevaluatedItems: I },
      { ...UI, unevaluatedItems: { type: "boolean" } },
      {
        inputSchema: noWitness("INPUT_SCHEMA_NARROWED"),
        outputSchema: noWitness("OUTPUT_SCHEMA_WIDENED"),
      },
    ),
  },
  minProperties: opaqueBound(O, "minProperties", 1, 2, true),
  maxProperties: opaqueBound(O, "maxProperties", 1, 2, false),
  additionalProperties: {
    set: edit(
      O,
      { ...O, additionalProperties: false },
      {
        inputSchema: { rule: inputNarrowed.closed },
        outputSchema: { rule: "OUTPUT_NARROWED" },
      },
    ),
    unset: edit({ ...O, additionalProperties: false }, O, widens("closed")),
    change: edit(
      { ...O, additionalProperties: S },
      { ...O, additionalProperties: I },
      changes("type"),
    ),
  },
  propertyNames: {
    ...sub(O, "propertyNames", { pattern: "^[ab]$" }, { pattern: "^[a]$" }, "opaque"),
    change: edit(
      { ...O, propertyNames: { pattern: "^[ab]$" } },
      { ...O, propertyNames: { pattern: "^[a]$" } },
      {
        inputSchema: narrows("opaque").inputSchema,
        outputSchema: noWitness("OUTPUT_SCHEMA_WIDENED"),
      },
    ),
  },
  unevaluatedProperties: sub(O, "unevaluatedProperties", I, S, "opaque"),
  properties: {
    add: edit(
      O,
      { ...O, properties: { ...O.properties, c: S } },
      {
        inputSchema: { rule: "INPUT_OPTIONAL_ADDED" },
        outputSchema: { rule: "OUTPUT_PROPERTY_ADDED" },
      },
    ),
    remove: edit(
      O,
      { ...O, properties: { a: S } },
      {
        inputSchema: { rule: "INPUT_PROPERTY_REMOVED" },
        outputSchema: { rule: "OUTPUT_OPTIONAL_PROPERTY_REMOVED" },
      },
    ),
    change: edit(O, { ...O, properties: { ...O.properties, a: I } }, changes("type")),
  },
  required: {
    add: edit({ ...O, required: ["b"] }, { ...O, required: ["a", "b"] }, narrows("required")),
    remove: edit({ ...O, required: ["a", "b"] }, { ...O, required: ["b"] }, widens("required")),
    reorder: edit(
      { ...O, required: ["a", "b"] },
      { ...O, required: ["b", "a"] },
      same("required order"),
    ),
  },
  patternProperties: {
    add: edit(O, { ...O, patternProperties: { "^extra": S } }, narrows("opaque")),
    remove: edit({ ...O, patternProperties: { "^extra": S } }, O, widens("opaque")),
    change: edit(
      { ...O, patternProperties: { "^extra": I } },
      { ...O, patternProperties: { "^extra": S } },
      changes("opaque"),
    ),
  },
  dependentRequired: {
    add: edit(O, { ...O, dependentRequired: { a: ["b"] } }, narrows("opaque")),
    remove: edit({ ...O, dependentRequired: { a: ["b"] } }, O, widens("opaque")),
    change: edit(
      { ...O, dependentRequired: { a: ["b"] } },
      { ...O, dependentRequired: { b: ["a"] } },
      changes("opaque"),
    ),
  },
  dependentSchemas: {
    add: edit(O, { ...O, dependentSchemas: { a: { required: ["b"] } } }, narrows("opaque")),
    remove: edit({ ...O, dependentSchemas: { a: { required: ["b"] } } }, O, widens("opaque")),
    change: edit(
      { ...O, dependentSchemas: { a: { required: ["b"] } } },
      { ...O, dependentSchemas: { b: { required: ["a"] } } },
      changes("opaque"),
    ),
  },
  not: sub(O, "not", { required: ["a"] }, { required: ["b"] }, "opaque"),
  if: {
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    ...sub({ ...O, then: { required: ["b"] } }, "if", { required: ["a"] }, {}, "opaque"),
    change: edit(
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      { ...O, if: { required: ["a"] }, then: { required: ["a", "b"] } },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      { ...O, if: { required: ["b"] }, then: { required: ["a", "b"] } },
      changes("opaque"),
    ),
  },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
  then: sub(
    { ...O, if: { required: ["a"] } },
    "then",
    { required: ["b"] },
    { not: { required: ["b"] } },
    "opaque",
  ),
  else: sub(
    { ...O, if: { required: ["a"] } },
    "else",
    { required: ["b"] },
    { not: { required: ["b"] } },
    "opaque",
  ),
  allOf: {
    set: edit(S, { ...S, allOf: [{ minLength: 2 }] }, narrows("bound")),
    unset: edit({ ...S, allOf: [{ minLength: 2 }] }, S, widens("bound")),
    add: edit(
      { ...S, allOf: [{ minLength: 2 }] },
      { ...S, allOf: [{ minLength: 2 }, { maxLength: 5 }] },
      narrows("bound"),
    ),
    remove: edit(
      { ...S, allOf: [{ minLength: 2 }, { maxLength: 5 }] },
      { ...S, allOf: [{ minLength: 2 }] },
      widens("bound"),
    ),
    reorder: edit(
      { ...S, allOf: [{ minLength: 2 }, { maxLength: 5 }] },
      { ...S, allOf: [{ maxLength: 5 }, { minLength: 2 }] },
      same("allOf order: every member still applies"),
    ),
  },
  anyOf: unions("anyOf"),
  oneOf: unions("oneOf"),
  $ref: {
    set: edit(S, (slot) => ref(slot, S), same("an equivalent $ref restructuring")),
    unset: edit((slot) => ref(slot, S), S, same("an equivalent $ref restructuring")),
    change: edit(
      (slot) => ref(slot, S, I),
      (slot) => ({ ...ref(slot, S, I), x: { $ref: `#/$defs/${slot}_other` } }),
      changes("type"),
    ),
  },
  $defs: {
    add: edit(
      () => ({ x: S }),
      (slot) => ({ x: S, defs: { [`${slot}_unused`]: I } }),
      same("a definition no $ref uses"),
    ),
    remove: edit(
      (slot) => ({ x: S, defs: { [`${slot}_unused`]: I } }),
      () => ({ x: S }),
      same("a definition no $ref uses"),
    ),
    change: edit(
      (slot) => ref(slot, S),
      (slot) => ref(slot, I),
      changes("type"),
    ),
  },
  $schema: {
    set: edit(
      S,
      root({ $schema: "https://json-schema.org/draft/2020-12/schema" }),
      same("the 2020-12 dialect written out, MCP's default"),
    ),
    unset: edit(
      root({ $schema: "https://json-schema.org/draft/2020-12/schema" }),
      S,
      same("the 2020-12 dialect left implicit, MCP's default"),
    ),
    change: edit(
      root({ $schema: "https://json-schema.org/draft/2020-12/schema" }),
      root({ $schema: "http://json-schema.org/draft-07/schema#" }),
      both({
        gap:
          "a dialect switch: the diff reads every tool schema as 2020-12 (MCP's dialect); the " +
          "keywords it compares mean the same in draft-07 except tuple `items`, compared as written",
      }),
    ),
  },
  $id: {
    set: edit(
      S,
      root({ $id: "https://example.com/a" }),
      same("names the schema; $refs are resolved before comparing"),
    ),
    unset: edit(
      root({ $id: "https://example.com/a" }),
      S,
      same("names the schema; $refs are resolved before comparing"),
    ),
    change: edit(
      root({ $id: "https://example.com/a" }),
      root({ $id: "https://example.com/b" }),
      same("names the schema; $refs are resolved before comparing"),
    ),
  },
  $anchor: docs("$anchor", "a", "b", "a name for $ref; references are resolved before comparing"),
  $dynamicAnchor: docs("$dynamicAnchor", "a", "b", "a name for $dynamicRef only"),
  $dynamicRef: {
    set: edit(
      S,
      { ...S, $dynamicRef: "#a" },
      {
        inputSchema: { rule: "INPUT_SCHEMA_NARROWED", noWitness: dynamic },
        outputSchema: { rule: "OUTPUT_NARROWED", noWitness: dynamic },
      },
    ),
    unset: edit({ ...S, $dynamicRef: "#a" }, S, {
      inputSchema: { rule: "INPUT_WIDENED", noWitness: dynamic },
      outputSchema: { rule: "OUTPUT_SCHEMA_WIDENED", noWitness: dynamic },
    }),
    change: edit(
      { ...S, $dynamicRef: "#a" },
      { ...S, $dynamicRef: "#b" },
      {
        inputSchema: { rule: "INPUT_SCHEMA_NARROWED", noWitness: dynamic },
        outputSchema: { rule: "OUTPUT_SCHEMA_WIDENED", noWitness: dynamic },
      },
    ),
  },
  $vocabulary: {
    set: edit(S, root({ $vocabulary: {} }), same("only meaningful in a meta-schema")),
    unset: edit(root({ $vocabulary: {} }), S, same("only meaningful in a meta-schema")),
  },
  $comment: docs("$comment", "a", "b", "a comment for schema authors"),
  title: docs("title", "a", "b", textDoc),
  description: docs("description", "a", "b", textDoc),
  default: docs("default", "a", "b", textDoc),
  examples: docsList("examples", textDoc),
  deprecated: flagDocs("deprecated", textDoc),
  readOnly: flagDocs("readOnly", textDoc),
  writeOnly: flagDocs("writeOnly", textDoc),
  contentEncoding: docs("contentEncoding", "base64", "base32", contentAnnotation),
  contentMediaType: docs("contentMediaType", "text/plain", "text/html", contentAnnotation),
  contentSchema: {
    set: edit(S, { ...S, contentSchema: S }, same(contentAnnotation)),
    unset: edit({ ...S, contentSchema: S }, S, same(contentAnnotation)),
    change: edit({ ...S, contentSchema: S }, { ...S, contentSchema: I }, same(contentAnnotation)),
  },
  "x-skillpilot-tool-reference": {
    set: edit(
      { ...S, enum: ["t"] },
      { ...S, enum: ["t"], "x-skillpilot-tool-reference": true },
      same("an annotation: the enum beside it validates"),
    ),
    unset: edit(
      { ...S, enum: ["t"], "x-skillpilot-tool-reference": true },
      { ...S, enum: ["t"] },
      same("an annotation: the enum beside it validates"),
    ),
  },
  "x-mcp-header": {
    set: edit(S, { ...S, "x-mcp-header": "Region" }, both({ rule: "PARAM_HEADER_ADDED" })),
    unset: edit(
      { ...S, "x-mcp-header": "Region" },
      S,
      both({
        rule: "PARAM_HEADER_REMOVED",
        noWitness:
          "old clients still send the header, which the server ignores: nothing is refused",
      }),
    ),
    change: edit(
      { ...S, "x-mcp-header": "Region" },
      { ...S, "x-mcp-header": "Zone" },
      both({ rule: "PARAM_HEADER_ADDED" }),
    ),
  },
};

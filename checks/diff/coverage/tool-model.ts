import { extensionKeywords, knownKeywords } from "../../../json-schema/keywords.js";

/**
 * The MCP Tool object as a space of edits: every place of a tool descriptor (and of the listing
 * that carries it) a server can change between two versions, and which kinds of edit make sense
 * there. Schema places are derived from the JSON Schema 2020-12 vocabularies (`keywords.ts`), so a
 * keyword the project learns is a new place here, and the coverage map must say how it is judged.
 */

/** The kinds of edit: what happens to the value at one place. */
export const editKinds = [
  "add",
  "remove",
  "set",
  "unset",
  "change",
  "increase",
  "decrease",
  "reorder",
] as const;
/** One kind of edit. */
export type EditKind = (typeof editKinds)[number];

/** Where in a schema a keyword sits: the depths every keyword is generated at. */
export const schemaDepths = ["property", "nested", "items", "ref", "root"] as const;
/** One schema depth. */
export type SchemaDepth = (typeof schemaDepths)[number];

/** The two schemas of a tool. */
export type SchemaSide = "inputSchema" | "outputSchema";

/** The SEP-2243 keyword mirroring an input argument into an `Mcp-Param-*` HTTP header. */
export const mcpHeaderKeyword = "x-mcp-header";

/** One place of the Tool object. */
export interface ToolLocation {
  /** Stable id, e.g. `inputSchema/nested/minimum` or `annotations.readOnlyHint`. */
  id: string;
  /** `schema` for a keyword inside inputSchema/outputSchema; else the descriptor or listing. */
  part: "schema" | "tool" | "listing";
  side?: SchemaSide;
  depth?: SchemaDepth;
  keyword?: string;
  /** The descriptor field (`annotations.readOnlyHint`, `_meta.ui.resourceUri`, …). */
  field?: string;
  /** The edits that make sense here, each with its value variants (`""` when there is one). */
  edits: readonly { kind: EditKind; variants: readonly string[] }[];
}

/** One edit of the space: a place, a kind and a variant. */
export interface ToolEdit {
  /** `location id` + `:` + kind (+ `=` variant). */
  id: string;
  location: ToolLocation;
  kind: EditKind;
  variant: string;
}

type Shape = readonly { kind: EditKind; variants?: readonly string[] }[];
const plain = (...kinds: EditKind[]): Shape => kinds.map((kind) => ({ kind }));

/** What kind of value a keyword holds, which decides the edits that make sense for it. */
const keywordShapes: Record<string, Shape> = {
  bound: plain("set", "unset", "increase", "decrease"),
  flag: plain("set", "unset"),
  scalar: plain("set", "unset", "change"),
  list: plain("add", "remove", "reorder"),
  types: plain("add", "remove", "change"),
  schema: plain("set", "unset", "change"),
  branches: plain("set", "unset", "add", "remove", "reorder"),
  map: plain("add", "remove", "change"),
};

/**
 * Every keyword the model knows, with its value shape. A keyword of `keywords.ts` missing here
 * makes `toolModel()` throw: the model must grow with the vocabulary.
 */
const keywordShape: Record<string, keyof typeof keywordShapes> = {
  // Core
  $schema: "scalar",
  $id: "scalar",
  $ref: "scalar",
  $anchor: "scalar",
  $dynamicRef: "scalar",
  $dynamicAnchor: "scalar",
  $vocabulary: "flag",
  $comment: "scalar",
  $defs: "map",
  // Applicators
  not: "schema",
  if: "schema",
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
  then: "schema",
  else: "schema",
  items: "schema",
  contains: "schema",
  additionalProperties: "schema",
  propertyNames: "schema",
  unevaluatedItems: "schema",
  unevaluatedProperties: "schema",
  contentSchema: "schema",
  allOf: "branches",
  anyOf: "branches",
  oneOf: "branches",
  prefixItems: "branches",
  properties: "map",
  patternProperties: "map",
  dependentSchemas: "map",
  // Validation
  type: "types",
  enum: "list",
  const: "scalar",
  multipleOf: "bound",
  maximum: "bound",
  exclusiveMaximum: "bound",
  minimum: "bound",
  exclusiveMinimum: "bound",
  maxLength: "bound",
  minLength: "bound",
  pattern: "scalar",
  maxItems: "bound",
  minItems: "bound",
  uniqueItems: "flag",
  maxContains: "bound",
  minContains: "bound",
  maxProperties: "bound",
  minProperties: "bound",
  required: "list",
  dependentRequired: "map",
  format: "scalar",
  // Meta-data and content
  title: "scalar",
  description: "scalar",
  default: "scalar",
  deprecated: "flag",
  readOnly: "flag",
  writeOnly: "flag",
  examples: "list",
  contentEncoding: "scalar",
  contentMediaType: "scalar",
  // Extensions
  "x-skillpilot-tool-reference": "flag",
  [mcpHeaderKeyword]: "scalar",
};

/** Keywords that only make sense at the root of a schema resource. */
const rootOnly = new Set(["$schema", "$id", "$defs", "$vocabulary"]);

/** The depths a keyword is generated at on one side. */
function depthsOf(keyword: string, side: SchemaSide): SchemaDepth[] {
  if (rootOnly.has(keyword)) return ["root"];
  // SEP-2243: only on properties reachable through a chain of `properties`, and only on inputs.
  if (keyword === mcpHeaderKeyword) return side === "inputSchema" ? ["property", "nested"] : [];
  // A `$ref` is itself the indirection the `ref` depth stands for.
  if (keyword === "$ref") return ["property", "nested", "items"];
  return ["property", "nested", "items", "ref"];
}

/** A boolean annotation hint: set to either value, unset from either, flipped either way. */
const hintEdits: Shape = [
  { kind: "set", variants: ["true", "false"] },
  { kind: "unset", variants: ["true", "false"] },
  { kind: "change", variants: ["true", "false"] },
];
const hints = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** Places of the descriptor and the listing, outside the two schemas. */
const descriptorPlaces: readonly { field: string; part: "tool" | "listing"; edits: Shape }[] = [
  { field: "tools", part: "listing", edits: plain("add", "remove", "reorder") },
  { field: "ttlMs", part: "listing", edits: plain("set", "unset", "increase", "decrease") },
  { field: "cacheScope", part: "listing", edits: plain("set", "unset", "change") },
  { field: "name", part: "tool", edits: plain("change") },
  { field: "title", part: "tool", edits: plain("set", "unset", "change") },
  { field: "description", part: "tool", edits: plain("set", "unset", "change") },
  { field: "icons", part: "tool", edits: plain("add", "remove", "change") },
  { field: "annotations.title", part: "tool", edits: plain("set", "unset", "change") },
  ...hints.map((h) => ({ field: `annotations.${h}`, part: "tool" as const, edits: hintEdits })),
  {
    field: "execution.taskSupport",
    part: "tool",
    edits: [
      { kind: "set", variants: ["required", "optional", "forbidden"] },
      { kind: "unset", variants: ["required", "optional", "forbidden"] },
      {
        kind: "change",
        variants: [
          "forbidden>optional",
          "forbidden>required",
          "optional>required",
          "optional>forbidden",
          "required>optional",
          "required>forbidden",
        ],
      },
    ],
  },
  {
    field: "_meta.ui.resourceUri",
    part: "tool",
    edits: [
      { kind: "set" },
      { kind: "unset" },
      { kind: "change", variants: ["same-resource", "other-resource"] },
    ],
  },
  {
    field: "_meta.openai/outputTemplate",
    part: "tool",
    edits: [
      { kind: "set" },
      { kind: "unset" },
      { kind: "change", variants: ["same-resource", "other-resource"] },
    ],
  },
  {
    field: "_meta.ui.visibility",
    part: "tool",
    edits: [
      { kind: "set", variants: ["model", "app", "app+model"] },
      { kind: "unset" },
      { kind: "change" },
      { kind: "add" },
      { kind: "remove" },
      { kind: "reorder" },
    ],
  },
  ...["securitySchemes", "_meta.securitySchemes"].map((field) => ({
    field,
    part: "tool" as const,
    edits: [
      { kind: "set" as const },
      { kind: "unset" as const },
      { kind: "add" as const, variants: ["scope", "noauth"] },
      { kind: "remove" as const, variants: ["scope", "noauth"] },
      { kind: "reorder" as const },
    ],
  })),
  { field: "outputSchema", part: "tool", edits: plain("set", "unset") },
];

const expand = (shape: Shape) => shape.map((e) => ({ kind: e.kind, variants: e.variants ?? [""] }));

/**
 * Every place of the Tool object: the descriptor's fields, the listing's, and every keyword of
 * the 2020-12 vocabularies (plus the extensions) at every depth of both schemas.
 */
export function toolModel(
  keywords: readonly string[] = [...knownKeywords, ...extensionKeywords, mcpHeaderKeyword],
): ToolLocation[] {
  const unknown = keywords.filter((k) => !(k in keywordShape));
  if (unknown.length > 0)
    throw new Error(`the Tool model has no value shape for keyword(s) ${unknown.join(", ")}`);
  const out: ToolLocation[] = descriptorPlaces.map((p) => ({
    id: p.part === "listing" ? `listing.${p.field}` : p.field,
    part: p.part,
    field: p.field,
    edits: expand(p.edits),
  }));
  for (const side of ["inputSchema", "outputSchema"] as const)
    for (const keyword of [...new Set(keywords)].sort())
      for (const depth of depthsOf(keyword, side))
        out.push({
          id: `${side}/${depth}/${keyword}`,
          part: "schema",
          side,
          depth,
          keyword,
          edits: expand(keywordShapes[keywordShape[keyword]]),
        });
  return out;
}

/** Every edit of the model, in model order. */
export function editSpace(model = toolModel()): ToolEdit[] {
  return model.flatMap((location) =>
    location.edits.flatMap(({ kind, variants }) =>
      variants.map((variant) => ({
        id: `${location.id}:${kind}${variant ? `=${variant}` : ""}`,
        location,
        kind,
        variant,
      })),
    ),
  );
}

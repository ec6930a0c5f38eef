import { pointerJoin } from "../../../diagnostics/diagnostic.js";
import { pointerSegments } from "../../../diagnostics/locate.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { isObject, type JsonObject, walkSchema } from "../../../json-schema/walk.js";
import type { ContractDoc } from "../../../contract-model/contract-doc.js";
import { type LintRule, type LintTool, lintRule } from "../lint-rule.js";

/**
 * MCP 2026-07-28 (Streamable HTTP, "Custom Headers from Tool Parameters"): a property of a tool's
 * `inputSchema` may carry `x-mcp-header`, and the client mirrors the argument into an
 * `Mcp-Param-{name}` HTTP header. A client on that transport MUST drop from `tools/list` every tool
 * whose `x-mcp-header` values break the spec's constraints, so each constraint is one rule here.
 * They read the input schema as the document declares it (`$ref`s kept), as a host does.
 */
const mcpHeaderKeyword = "x-mcp-header";

/** RFC 9110 §5.6.2 `token` (`1*tchar`). */
const tchar = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const control = /[\u0000-\u001f\u007f]/;
/** The safe range of integers in IEEE 754 doubles (JavaScript's Number.MAX_SAFE_INTEGER). */
const safe = 2 ** 53 - 1;

/** One `x-mcp-header` annotation of a tool's input. */
interface HeaderAnnotation {
  tool: string;
  /** The annotation's value, as declared. */
  value: unknown;
  /** The annotated schema. */
  schema: JsonObject;
  /** Pointer of the annotated schema inside the input schema (`""` is its root). */
  at: string;
  /** Pointer of the annotated schema in the document. */
  pointer: string;
  /** Reached from the root through `properties` keys only. */
  reachable: boolean;
}

/** Visit every subschema (also legacy `definitions`), with its pointer. */
function visitAll(schema: unknown, at: string, visit: (node: JsonObject, at: string) => void) {
  walkSchema(schema, at, (node, pointer) => {
    visit(node, pointer);
    if (isObject(node.definitions))
      for (const [name, sub] of Object.entries(node.definitions))
        visitAll(sub, pointerJoin(pointer, "definitions", name), visit);
  });
}

/** A chain of `properties` keys only: `/properties/a/properties/b`, never the root itself. */
function staticallyReachable(at: string): boolean {
  const segments = pointerSegments(at);
  return (
    segments.length > 0 &&
    segments.length % 2 === 0 &&
    segments.every((s, i) => i % 2 === 1 || s === "properties")
  );
}

const memo = new WeakMap<readonly LintTool[], HeaderAnnotation[]>();

/** Every `x-mcp-header` annotation of every tool, in document order. */
function annotations(tools: readonly LintTool[]): HeaderAnnotation[] {
  const known = memo.get(tools);
  if (known) return known;
  const out: HeaderAnnotation[] = [];
  for (const t of tools) {
    const base = `${t.pointer}/inputSchema`;
    visitAll(t.declaredInput ?? t.rawInput, "", (schema, at) => {
      if (mcpHeaderKeyword in schema)
        out.push({
          tool: t.name,
          value: schema[mcpHeaderKeyword],
          schema,
          at,
          pointer: `${base}${at}`,
          reachable: staticallyReachable(at),
        });
    });
  }
  memo.set(tools, out);
  return out;
}

/** Where a finding about the annotation's name points. */
const named = (a: HeaderAnnotation, doc: ContractDoc) => ({
  file: doc.file,
  pointer: pointerJoin(a.pointer, mcpHeaderKeyword),
});
const field = (a: HeaderAnnotation) => a.at || "/";

/** The header name is not empty (and is a string at all). */
const mcpHeaderEmpty = lintRule(
  defineRule({
    id: "GATE_MCP_HEADER_EMPTY",
    family: "lint",
    severity: "error",
    summary:
      "An x-mcp-header value is a non-empty string; hosts on Streamable HTTP drop a tool with an " +
      "empty one (MCP 2026-07-28).",
    message: {
      empty: "{tool}: input {field} has an empty x-mcp-header; hosts drop the tool",
      notString:
        "{tool}: input {field} has x-mcp-header {value:json}, not a header name; hosts drop the tool",
    },
  }),
  (tools, doc, report) => {
    for (const a of annotations(tools))
      if (a.value === "")
        report({ variant: "empty", tool: a.tool, field: field(a) }, named(a, doc));
      else if (typeof a.value !== "string")
        report(
          { variant: "notString", tool: a.tool, field: field(a), value: a.value },
          named(a, doc),
        );
  },
);

/** The header name is an HTTP token: it becomes part of `Mcp-Param-{name}`. */
const mcpHeaderNotToken = lintRule(
  defineRule({
    id: "GATE_MCP_HEADER_NOT_TOKEN",
    family: "lint",
    severity: "error",
    summary:
      "An x-mcp-header value is an HTTP field-name token (1*tchar, RFC 9110): letters, digits and " +
      "!#$%&'*+-.^_`|~ only, no spaces, colons or non-ASCII (MCP 2026-07-28).",
    message:
      "{tool}: input {field} has x-mcp-header {value:json}, which is not an HTTP token " +
      "({bad:json} is not allowed); hosts drop the tool",
  }),
  (tools, doc, report) => {
    for (const a of annotations(tools)) {
      if (typeof a.value !== "string" || a.value === "" || control.test(a.value)) continue;
      const bad = [...a.value].find((c) => !tchar.test(c));
      if (bad !== undefined)
        report({ tool: a.tool, field: field(a), value: a.value, bad }, named(a, doc));
    }
  },
);

/** No control characters: a CR or LF in a header name is header injection. */
const mcpHeaderControlCharacter = lintRule(
  defineRule({
    id: "GATE_MCP_HEADER_CONTROL_CHARACTER",
    family: "lint",
    severity: "error",
    summary:
      "An x-mcp-header value holds no control characters (CR, LF, tab, …): in a header name they " +
      "inject headers (MCP 2026-07-28).",
    message:
      "{tool}: input {field} has x-mcp-header {value:json} with a control character; hosts drop the tool",
  }),
  (tools, doc, report) => {
    for (const a of annotations(tools))
      if (typeof a.value === "string" && control.test(a.value))
        report({ tool: a.tool, field: field(a), value: a.value }, named(a, doc));
  },
);

/** Header names are unique within a tool's input, ignoring case (HTTP field names are). */
const mcpHeaderDuplicate = lintRule(
  defineRule({
    id: "GATE_MCP_HEADER_DUPLICATE",
    family: "lint",
    severity: "error",
    summary:
      "x-mcp-header values are case-insensitively unique within a tool's inputSchema " +
      "(MCP 2026-07-28).",
    message:
      "{tool}: input {field} has x-mcp-header {value:json}, which {other} already declares " +
      "(header names ignore case); hosts drop the tool",
  }),
  (tools, doc, report) => {
    const seen = new Map<string, HeaderAnnotation>();
    for (const a of annotations(tools)) {
      if (typeof a.value !== "string" || a.value === "") continue;
      const key = `${a.tool}\u0000${a.value.toLowerCase()}`;
      const first = seen.get(key);
      if (first)
        report(
          { tool: a.tool, field: field(a), value: a.value, other: field(first) },
          named(a, doc),
        );
      else seen.set(key, a);
    }
  },
);

const primitive = new Set(["string", "integer", "boolean"]);

/** Only a string, integer or boolean parameter is mirrored; a number is excluded explicitly. */
const mcpHeaderType = lintRule(
  defineRule({
    id: "GATE_MCP_HEADER_TYPE",
    family: "lint",
    severity: "error",
    summary:
      "x-mcp-header sits only on a parameter whose type is string, integer or boolean (one type, " +
      "stated on it): not number, array, object, null, a list of types or none (MCP 2026-07-28).",
    message: {
      other:
        "{tool}: input {field} has x-mcp-header but its type is {type:json}; only string, " +
        "integer or boolean parameters are mirrored, hosts drop the tool",
      none:
        "{tool}: input {field} has x-mcp-header but states no type of its own (hosts follow no " +
        "$ref or combinator to find one); only string, integer or boolean parameters are " +
        "mirrored, hosts drop the tool",
    },
  }),
  (tools, doc, report) => {
    for (const a of annotations(tools)) {
      const at = { file: doc.file, pointer: a.pointer };
      if (a.schema.type === undefined)
        report({ variant: "none", tool: a.tool, field: field(a) }, at);
      else if (typeof a.schema.type !== "string" || !primitive.has(a.schema.type))
        report({ variant: "other", tool: a.tool, field: field(a), type: a.schema.type }, at);
    }
  },
);

/** The lowest and highest integer a schema admits, as far as its bounds say. */
function integerBounds(schema: JsonObject): { low: number; high: number } {
  const listed = Array.isArray(schema.enum)
    ? schema.enum
    : "const" in schema
      ? [schema.const]
      : undefined;
  if (listed?.every((v) => typeof v === "number"))
    return { low: Math.min(...(listed as number[])), high: Math.max(...(listed as number[])) };
  const num = (k: string, integer: (v: number) => number) =>
    typeof schema[k] === "number" ? integer(schema[k] as number) : undefined;
  const lows = [
    num("minimum", Math.ceil),
    num("exclusiveMinimum", (v) => Math.floor(v) + 1),
  ].filter((v) => v !== undefined);
  const highs = [
    num("maximum", Math.floor),
    num("exclusiveMaximum", (v) => Math.ceil(v) - 1),
  ].filter((v) => v !== undefined);
  return {
    low: lows.length ? Math.max(...lows) : Number.NEGATIVE_INFINITY,
    high: highs.length ? Math.min(...highs) : Number.POSITIVE_INFINITY,
  };
}

/** A mirrored integer stays within ±(2^53−1): the schema's bounds say so. */
const mcpHeaderIntegerRange = lintRule(
  defineRule({
    id: "GATE_MCP_HEADER_INTEGER_RANGE",
    family: "lint",
    severity: "error",
    summary:
      "An integer parameter with x-mcp-header admits only integers within ±(2^53−1): its " +
      "minimum and maximum (or enum/const) lie in that range (MCP 2026-07-28).",
    message: {
      unbounded:
        "{tool}: input {field} is a mirrored integer with no {side} bound, so it admits values " +
        "beyond ±(2^53−1), which no header may carry",
      beyond:
        "{tool}: input {field} is a mirrored integer whose {side} bound {bound} lies beyond " +
        "±(2^53−1), which no header may carry",
    },
  }),
  (tools, doc, report) => {
    for (const a of annotations(tools)) {
      if (a.schema.type !== "integer") continue;
      const { low, high } = integerBounds(a.schema);
      const at = { file: doc.file, pointer: a.pointer };
      for (const [side, bound, outside] of [
        ["lower", low, low < -safe],
        ["upper", high, high > safe],
      ] as const)
        if (!Number.isFinite(bound))
          report({ variant: "unbounded", tool: a.tool, field: field(a), side }, at);
        else if (outside)
          report({ variant: "beyond", tool: a.tool, field: field(a), side, bound }, at);
    }
  },
);

/** Only properties reached through `properties` keys from the root can be extracted. */
const mcpHeaderUnreachable = lintRule(
  defineRule({
    id: "GATE_MCP_HEADER_UNREACHABLE",
    family: "lint",
    severity: "error",
    summary:
      "x-mcp-header sits only on a property statically reachable from the inputSchema root " +
      "through properties keys: not the root, nor under items, additionalProperties, " +
      "oneOf/anyOf/allOf/not, if/then/else, $defs or a $ref (MCP 2026-07-28).",
    message:
      "{tool}: x-mcp-header at input {field} is not reachable through properties alone; " +
      "hosts drop the tool",
  }),
  (tools, doc, report) => {
    for (const a of annotations(tools))
      if (!a.reachable) report({ tool: a.tool, field: field(a) }, named(a, doc));
  },
);

/** The constraints of `x-mcp-header`, in reporting order. */
export const mcpHeaderRules: readonly LintRule[] = [
  mcpHeaderEmpty,
  mcpHeaderNotToken,
  mcpHeaderControlCharacter,
  mcpHeaderDuplicate,
  mcpHeaderType,
  mcpHeaderIntegerRange,
  mcpHeaderUnreachable,
];

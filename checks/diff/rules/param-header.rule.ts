import { isObject, type JsonObject } from "../../../json-schema/schema-facts.js";
import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import { sampleValue } from "../sample.js";

/** SEP-2243: an input property mirrored into the `Mcp-Param-<name>` HTTP header. */
const headerKeyword = "x-mcp-header";

const added = defineRule({
  id: "PARAM_HEADER_ADDED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary:
    "An input property is now mirrored into an Mcp-Param header (x-mcp-header added or " +
    "renamed): a server refuses a call that carries the argument without the matching header.",
  message: {
    added:
      "{tool}: argument {path} must now be sent as header Mcp-Param-{header}; old calls that carry it without the header are refused",
    renamed:
      "{tool}: argument {path} is now sent as header Mcp-Param-{header} instead of Mcp-Param-{before}; old calls are refused",
  },
});
const removed = defineRule({
  id: "PARAM_HEADER_REMOVED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary:
    "An input property is no longer mirrored into an Mcp-Param header: old clients still send " +
    "it, and the server ignores it.",
  message: "{tool}: argument {path} is no longer sent as header Mcp-Param-{header}",
});

/**
 * Every `x-mcp-header` of a schema, by the property path it sits on: only properties reached
 * through a chain of `properties` carry one (SEP-2243).
 */
function headers(schema: unknown, path: string[] = [], out = new Map<string, string>()) {
  if (!isObject(schema) || !isObject(schema.properties)) return out;
  for (const [name, sub] of Object.entries(schema.properties)) {
    const at = [...path, name];
    if (isObject(sub) && typeof sub[headerKeyword] === "string")
      out.set(JSON.stringify(at), sub[headerKeyword] as string);
    headers(sub, at, out);
  }
  return out;
}

/** An old call carrying a value at `path` (the argument the header mirrors). */
function callCarrying(schema: unknown, path: string[]): unknown {
  const args = sampleValue(schema as JsonObject) as JsonObject;
  let node: JsonObject = isObject(args) ? args : {};
  let at: unknown = schema;
  const root = node;
  for (const [i, seg] of path.entries()) {
    at = isObject(at) && isObject(at.properties) ? at.properties[seg] : undefined;
    if (i === path.length - 1) node[seg] = sampleValue(at as JsonObject);
    else {
      const next = isObject(node[seg])
        ? (node[seg] as JsonObject)
        : (sampleValue(at as JsonObject) as JsonObject);
      node[seg] = isObject(next) ? next : {};
      node = node[seg] as JsonObject;
    }
  }
  return root;
}

/** `x-mcp-header` declarations added, renamed or removed on a tool's input properties. */
export const paramHeaders: DiffCheck = {
  rules: [added, removed],
  check(ctx, report) {
    for (const [name, before] of ctx.old.tools) {
      const after = ctx.new.tools.get(name);
      if (!after) continue;
      const b = headers(before.rawInput),
        a = headers(after.rawInput);
      if (b.size === 0 && a.size === 0) continue;
      for (const [key, header] of a) {
        if (b.get(key) === header) continue;
        const path = JSON.parse(key) as string[];
        const pointer = path.map((p) => `/properties/${p}`).join("");
        const args = callCarrying(before.input, path);
        const was = b.get(key);
        report(
          added,
          was === undefined
            ? { variant: "added", tool: name, path: path.join("."), header }
            : { variant: "renamed", tool: name, path: path.join("."), header, before: was },
          {
            tool: name,
            pointer: `/tools/${name}/inputSchema${pointer}/${headerKeyword}`,
            at: { side: "new", pointer: `${after.pointer}/inputSchema${pointer}` },
            before: was ?? null,
            after: header,
            witness: {
              kind: "call",
              acceptedBy: "old",
              rejectedBy: "new",
              value: { name, arguments: args, withoutHeader: `Mcp-Param-${header}` },
              verified: ctx.checker.accepts(before.input, args) === true,
            },
          },
        );
      }
      for (const [key, header] of b) {
        if (a.has(key)) continue;
        const path = JSON.parse(key) as string[];
        const pointer = path.map((p) => `/properties/${p}`).join("");
        report(
          removed,
          { tool: name, path: path.join("."), header },
          {
            tool: name,
            pointer: `/tools/${name}/inputSchema${pointer}/${headerKeyword}`,
            at: { side: "new", pointer: `${after.pointer}/inputSchema${pointer}` },
            before: header,
            after: null,
          },
        );
      }
    }
  },
};

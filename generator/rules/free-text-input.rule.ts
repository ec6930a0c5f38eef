import { FreeTextJudge } from "../../contract-model/text/free-text.js";
import type { Diagnostic, Location } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule.js";
import { dereference, locateInSource, walkResolved } from "../../json-schema/deref.js";
import type { SchemaRegistry } from "../../json-schema/registry.js";
import { isObject } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";

/**
 * A mutation must not accept chat free text (C5, G11), decided by behaviour: the write's input, as
 * MCP clients receive it (every `$ref` inlined), is validated field by field with the project's
 * Ajv against ordinary prose samples; a field that accepts one is free text, whatever its keywords.
 */
export const freeTextInput = generatorRule(
  defineRule({
    id: "FREE_TEXT_INPUT",
    family: "generator",
    severity: "error",
    summary:
      "Write tools accept no free text: no input field (typed or not, nested ones included) may " +
      "accept an ordinary prose sample; use enum, const, a format or a pattern that admits " +
      "identifiers only (C5, G11).",
    message:
      "{tool}: input {field} accepts ordinary prose such as {accepted:json}, " +
      "so chat free text reaches the backend",
  }),
  (ctx, report) => {
    const judge = new FreeTextJudge();
    for (const tool of ctx.tools) {
      const input = tool.doc.input;
      if (tool.doc.kind === "read" || !isObject(input)) continue;
      const at = { file: tool.file, pointer: "/input" };
      const cycles: Diagnostic[] = [];
      const inlined = dereference(input, tool.id, at, ctx.registry, cycles);
      // A broken $ref inlines as {} and would read as free text; its own rule reports it.
      if (cycles.length > 0 || hasUnresolvedRef(input, tool.id, at, ctx.registry)) continue;
      for (const found of judge.fields(inlined)) {
        const loc = locateInSource(input, tool.id, at, ctx.registry, found.pointer);
        if (loc)
          report(
            { tool: String(tool.doc.name), field: found.field, accepted: found.accepted },
            loc,
          );
      }
    }
  },
);

function hasUnresolvedRef(
  schema: unknown,
  baseId: string,
  at: Location,
  registry: SchemaRegistry,
): boolean {
  let unresolved = false;
  walkResolved(schema, baseId, at, registry, (node, _loc, base) => {
    if (typeof node.$ref === "string" && !registry.resolve(node.$ref, base).ok) unresolved = true;
  });
  return unresolved;
}

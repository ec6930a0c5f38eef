import { annotationKeywords } from "../../../json-schema/keywords.js";
import { walkSchema } from "../../../json-schema/walk.js";
import { jsonEqual } from "../../../json-schema/schema-facts.js";
import { sameRawSchema } from "../../../contract-model/contract-doc.js";
import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";

const title = defineRule({
  id: "TOOL_TITLE_CHANGED",
  family: "diff",
  pinning: "by-text",
  bump: "patch",
  severity: "note",
  summary: "A tool title changed (text only).",
  message: "{tool}: title changed",
});
const description = defineRule({
  id: "TOOL_DESCRIPTION_CHANGED",
  family: "diff",
  pinning: "by-text",
  bump: "patch",
  severity: "note",
  summary: "A tool description changed (text only).",
  message: "{tool}: description changed",
});
const schemaDocs = defineRule({
  id: "SCHEMA_DOCS_CHANGED",
  family: "diff",
  pinning: "by-text",
  bump: "patch",
  severity: "note",
  summary: "Schema titles/descriptions/examples changed with no change to accepted values.",
  message: "{tool}: {side} schema documentation changed",
});

/**
 * Every annotation (title, description, examples, …) of a schema by pointer: what docs-only edits
 * change.
 */
function annotationMap(schema: unknown): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  walkSchema(schema, "", (node, pointer) => {
    const notes = Object.fromEntries(
      Object.entries(node).filter(([k]) => annotationKeywords.has(k)),
    );
    if (Object.keys(notes).length > 0) out[pointer] = notes;
  });
  return out;
}

// Keywords the comparison does not judge yet that stay in the comparable form: the content
// vocabulary (an annotation in 2020-12), extensions (`x-…`, judged by their own rules where they
// matter) and dynamic anchors (names for `$dynamicRef`, which is judged conservatively). A documentation edit beside
// an edit of one of these is still a documentation edit.
const nonValidating = (k: string) =>
  k.startsWith("x-") || k.startsWith("content") || k === "$dynamicAnchor" || k === "$vocabulary";
const valueKeywords = new Set(["const", "enum", "default", "examples"]);

// Arrays whose order accepts no other value.
const unordered = new Set(["allOf", "anyOf", "oneOf", "enum", "type"]);
const sortedByJson = (values: unknown[]) =>
  values
    .map((v) => [JSON.stringify(v), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, v]) => v);

/** The comparable form without the keywords that validate nothing, and without order. */
function validating(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(validating);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => !nonValidating(k))
      .map(([k, v]) => {
        const inner = valueKeywords.has(k) ? v : validating(v);
        return [k, unordered.has(k) && Array.isArray(inner) ? sortedByJson(inner) : inner];
      }),
  );
}

/** Text-only changes: PATCH. Key order and `$ref` refactoring produce no finding at all. */
export const docsOnly: DiffCheck = {
  rules: [title, description, schemaDocs],
  check(ctx, report) {
    for (const [name, before] of ctx.old.tools) {
      const after = ctx.new.tools.get(name);
      if (!after) continue;
      const titleBefore = before.title ?? before.annotations?.title,
        titleAfter = after.title ?? after.annotations?.title;
      if (titleBefore !== titleAfter)
        report(
          title,
          { tool: name },
          {
            tool: name,
            pointer: `/tools/${name}/title`,
            at: { side: "new", pointer: `${after.pointer}/title` },
            before: titleBefore ?? null,
            after: titleAfter ?? null,
          },
        );
      if (before.description !== after.description)
        report(
          description,
          { tool: name },
          {
            tool: name,
            pointer: `/tools/${name}/description`,
            at: { side: "new", pointer: `${after.pointer}/description` },
            before: before.description ?? null,
            after: after.description ?? null,
          },
        );
      for (const side of ["input", "output"] as const) {
        if (sameRawSchema(before, after, side)) continue;
        const [rb, ra, cb, ca] =
          side === "input"
            ? [before.rawInput, after.rawInput, before.input, after.input]
            : [before.rawOutput, after.rawOutput, before.output, after.output];
        if (
          jsonEqual(validating(cb), validating(ca)) &&
          !jsonEqual(annotationMap(rb), annotationMap(ra))
        )
          report(
            schemaDocs,
            { tool: name, side },
            {
              tool: name,
              pointer: `/tools/${name}/${side}Schema`,
              at: { side: "new", pointer: `${after.pointer}/${side}Schema` },
              before: rb,
              after: ra,
            },
          );
      }
    }
  },
};

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
        if (jsonEqual(cb, ca) && !jsonEqual(annotationMap(rb), annotationMap(ra)))
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

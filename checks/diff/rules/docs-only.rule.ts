import { annotationKeywords } from "../../../json-schema/keywords.js";
import { walkSchema } from "../../../json-schema/walk.js";
import { jsonEqual } from "../../../json-schema/schema-facts.js";
import { sameRawSchema } from "../../../contract/contract-doc.js";
import { defineDiffRule, type DiffCheck } from "../diff-rule.js";

const title = defineDiffRule("TOOL_TITLE_CHANGED", "patch", "A tool title changed (text only).");
const description = defineDiffRule(
  "TOOL_DESCRIPTION_CHANGED",
  "patch",
  "A tool description changed (text only).",
);
const schemaDocs = defineDiffRule(
  "SCHEMA_DOCS_CHANGED",
  "patch",
  "Schema titles/descriptions/examples changed with no change to accepted values.",
);

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
        report(title, {
          tool: name,
          pointer: `/tools/${name}/title`,
          at: { side: "new", pointer: `${after.pointer}/title` },
          message: `${name}: title changed`,
          before: titleBefore ?? null,
          after: titleAfter ?? null,
        });
      if (before.description !== after.description)
        report(description, {
          tool: name,
          pointer: `/tools/${name}/description`,
          at: { side: "new", pointer: `${after.pointer}/description` },
          message: `${name}: description changed`,
          before: before.description ?? null,
          after: after.description ?? null,
        });
      for (const side of ["input", "output"] as const) {
        if (sameRawSchema(before, after, side)) continue;
        const [rb, ra, cb, ca] =
          side === "input"
            ? [before.rawInput, after.rawInput, before.input, after.input]
            : [before.rawOutput, after.rawOutput, before.output, after.output];
        if (jsonEqual(cb, ca) && !jsonEqual(annotationMap(rb), annotationMap(ra)))
          report(schemaDocs, {
            tool: name,
            pointer: `/tools/${name}/${side}Schema`,
            at: { side: "new", pointer: `${after.pointer}/${side}Schema` },
            message: `${name}: ${side} schema documentation changed`,
            before: rb,
            after: ra,
          });
      }
    }
  },
};

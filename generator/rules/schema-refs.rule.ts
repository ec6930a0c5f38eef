import { type Location, pointerJoin } from "../../diagnostics/diagnostic.js";
import { closest } from "fastest-levenshtein";
import { defineRule } from "../../diagnostics/rule.js";
import { walkSchema } from "../../json-schema/walk.js";
import { generatorRule, type RuleContext } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/** Every `$ref` resolves offline to a repository `$id` (or the built-in 2020-12 meta-schema). */
export const remoteRef = generatorRule(
  defineRule({
    id: "REF_REMOTE",
    family: "generator",
    severity: "error",
    summary: "A $ref points outside the repository; schemas resolve offline only.",
    message: "$ref {ref} is remote: schemas resolve offline, against repository $ids only",
  }),
  (ctx, report) => checkRefs(ctx, "remote", (params, location) => report(params, location)),
);

/** A `$ref` whose document or JSON pointer does not exist. */
export const unresolvedRef = generatorRule(
  defineRule({
    id: "REF_UNRESOLVED",
    family: "generator",
    severity: "error",
    summary: "A $ref names a document or pointer that does not exist.",
    message: {
      plain: "$ref {ref} does not resolve to any repository $id and pointer",
      suggest:
        "$ref {ref} does not resolve to any repository $id and pointer; did you mean {suggestion}?",
    },
  }),
  (ctx, report) =>
    checkRefs(ctx, "unresolved", ({ ref }, location, base) => {
      const suggestion = closestRef(ctx, ref, base);
      report(
        suggestion ? { variant: "suggest", ref, suggestion } : { variant: "plain", ref },
        location,
      );
    }),
);

/**
 * The ref that was probably meant: the same pointer in the closest registered document id, or,
 * in the document named, the closest schema location (a `$defs` entry, a property). Only a
 * suggestion that resolves is offered.
 */
function closestRef(ctx: RuleContext, ref: string, base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(ref, base);
  } catch {
    return undefined;
  }
  const fragment = url.hash;
  url.hash = "";
  const ids = ctx.registry.ids();
  const doc = ctx.registry.get(url.href);
  const candidate = doc
    ? (() => {
        const pointers: string[] = [];
        walkSchema(doc.json, "", (_node, pointer) => {
          if (pointer) pointers.push(pointer);
        });
        const wanted = decodeURIComponent(fragment.replace(/^#/, ""));
        return pointers.length ? `${url.href}#${closest(wanted, pointers)}` : undefined;
      })()
    : ids.length
      ? `${closest(url.href, ids)}${fragment}`
      : undefined;
  return candidate && ctx.registry.resolve(candidate, base).ok ? candidate : undefined;
}

function checkRefs(
  ctx: RuleContext,
  want: "remote" | "unresolved",
  report: (params: { ref: string }, location: Location, base: string) => void,
): void {
  const baseOf = new Map<string, string>();
  for (const d of ctx.schemaDocs) baseOf.set(d.file, String((d.json as { $id?: string }).$id));
  for (const t of ctx.tools) baseOf.set(t.file, t.id);
  for (const root of schemaRoots(ctx)) {
    const base = baseOf.get(root.file);
    if (!base) continue;
    walkSchema(root.schema, root.pointer, (node, pointer) => {
      if (typeof node.$ref !== "string") return;
      const r = ctx.registry.resolve(node.$ref, base);
      if (r.ok || r.reason !== want) return;
      report({ ref: node.$ref }, { file: root.file, pointer: pointerJoin(pointer, "$ref") }, base);
    });
  }
}

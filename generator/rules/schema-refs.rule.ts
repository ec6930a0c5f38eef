import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { walkSchema } from "../../json-schema/walk.js";
import { createRule } from "./rule.js";
import { schemaRoots } from "./schema-roots.js";

/** Every `$ref` resolves offline to a repository `$id` (or the built-in 2020-12 meta-schema). */
export const remoteRef = createRule({
  id: "REF_REMOTE",
  severity: "error",
  summary: "A $ref points outside the repository; schemas resolve offline only.",
  check: (ctx, report) => checkRefs(ctx, "remote", (m, l) => report(m, l)),
});

/** A `$ref` whose document or JSON pointer does not exist. */
export const unresolvedRef = createRule({
  id: "REF_UNRESOLVED",
  severity: "error",
  summary: "A $ref names a document or pointer that does not exist.",
  check: (ctx, report) => checkRefs(ctx, "unresolved", (m, l) => report(m, l)),
});

function checkRefs(
  ctx: Parameters<typeof remoteRef.check>[0],
  want: "remote" | "unresolved",
  report: Parameters<typeof remoteRef.check>[1],
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
      const why =
        want === "remote"
          ? "is remote: schemas resolve offline, against repository $ids only"
          : "does not resolve to any repository $id and pointer";
      report(`$ref ${node.$ref} ${why}`, {
        file: root.file,
        pointer: pointerJoin(pointer, "$ref"),
      });
    });
  }
}

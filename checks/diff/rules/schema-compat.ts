import { propertiesOf, type Schema } from "../../../json-schema/schema-facts.js";
import { findIncompatibilities, type Incompat } from "../schema-subset.js";
import { sameRawSchema, type DiffTool } from "../../../contract-model/contract-doc.js";
import type { DiffRule } from "../../../diagnostics/rule.js";
import type { DiffContext, DiffReport, Witness } from "../diff-rule.js";
import type { Perspective } from "../gap-wording.js";

/**
 * The message of every schema-compatibility rule: the tool (or envelope), the gap as its direction
 * words it (`gap-wording.ts`), and where in the schema it sits.
 */
export const gapMessage = { at: "{subject}: {gap} at {path}", root: "{subject}: {gap}" } as const;

/** How one direction of a schema comparison maps incompatibilities to rule ids. */
export interface DirectionMap {
  /**
   * Which side plays "source" (its values must stay valid under the other side) and how its gaps
   * read.
   */
  wording: Perspective;
  rule(inc: Incompat, target: Schema): DiffRule<typeof gapMessage> | undefined;
}

export interface SchemaPair {
  tool?: string;
  /** Stable pointer prefix (`/tools/<name>/inputSchema`) and real pointers on both sides. */
  stable: string;
  oldPointer: string;
  newPointer: string;
  old: Schema;
  new: Schema;
  witnessKind: Witness["kind"];
  wrap: (value: unknown) => unknown;
}

/**
 * Compare one schema pair in the given directions and report each incompatibility under the rule
 * its direction assigns. Findings are de-duplicated by pointer (first direction wins).
 */
export function reportSchemaPair(
  ctx: DiffContext,
  report: DiffReport,
  pair: SchemaPair,
  directions: readonly DirectionMap[],
): void {
  // Pointers an earlier direction reported: directions are listed breaking-first, so a break
  // hides its own widening. Within one direction, distinct gaps at one pointer all count.
  const seen = new Set<string>();
  for (const dir of directions) {
    const here = new Set<string>();
    const from = dir.wording.source;
    const [source, target] = from === "old" ? [pair.old, pair.new] : [pair.new, pair.old];
    for (const inc of findIncompatibilities(source, target, ctx.checker)) {
      const rule = dir.rule(inc, target);
      if (!rule) continue;
      const path =
        inc.kind === "required" && inc.property !== undefined
          ? `${inc.path}/properties/${inc.property.replace(/~/g, "~0").replace(/\//g, "~1")}`
          : inc.path;
      const key = `${inc.kind} ${path}`;
      if (seen.has(path) || here.has(key)) continue;
      here.add(key);
      const other = from === "old" ? "new" : "old";
      const [before, after] =
        from === "old" ? [inc.sourceNode, inc.targetNode] : [inc.targetNode, inc.sourceNode];
      const subject = pair.tool ?? pair.stable;
      const gap = dir.wording.describe(inc.gap);
      const params = path
        ? { variant: "at" as const, subject, gap, path }
        : { variant: "root" as const, subject, gap };
      report(rule, params, {
        ...(pair.tool ? { tool: pair.tool } : {}),
        pointer: pair.stable + path,
        at: { side: "new", pointer: pair.newPointer + path },
        ...(inc.witness !== undefined || rule.bump === "major"
          ? {
              witness: {
                kind: pair.witnessKind,
                acceptedBy: from,
                rejectedBy: other,
                value: inc.witness === undefined ? null : pair.wrap(inc.witness),
                ...(inc.kind === "undeclared" ? { effect: "undeclared" as const } : {}),
                verified: inc.verified,
              },
            }
          : {}),
        before,
        after,
      });
    }
    for (const key of here) seen.add(key.slice(key.indexOf(" ") + 1));
  }
}

/**
 * True when the property named by a `required` incompatibility still exists in `schema` at that
 * path.
 */
export function stillDeclared(inc: Incompat, schema: Schema): boolean {
  let node: unknown = schema;
  for (const seg of inc.path.split("/").slice(1))
    node =
      node && typeof node === "object"
        ? (node as Record<string, unknown>)[seg.replace(/~1/g, "/").replace(/~0/g, "~")]
        : undefined;
  return (
    node !== null &&
    typeof node === "object" &&
    inc.property !== undefined &&
    inc.property in propertiesOf(node as Record<string, unknown>)
  );
}

/**
 * True when the schema node at `path` (a pointer built by the subset checker) is declared in
 * `schema`.
 */
export function declaredAt(schema: Schema, path: string): boolean {
  let node: unknown = schema;
  for (const seg of path.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return false;
    const key = seg.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!(key in (node as Record<string, unknown>))) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/**
 * True when the first node of `path` that `schema` does not declare is a property (its parent
 * segment is `properties`): a gap there is about a new property, not a new constraint or branch.
 */
export function newPropertyAt(schema: Schema, path: string): boolean {
  const segs = path.split("/").slice(1);
  for (let i = 1; i <= segs.length; i++)
    if (!declaredAt(schema, `/${segs.slice(0, i).join("/")}`))
      return i >= 2 && segs[i - 2] === "properties";
  return false;
}

/** Compare one schema (`inputSchema` or `outputSchema`) of every tool present on both sides. */
export function reportToolSchemas(
  ctx: DiffContext,
  report: DiffReport,
  key: "input" | "output",
  directions: (before: DiffTool) => readonly DirectionMap[],
): void {
  const field = key === "input" ? "inputSchema" : "outputSchema";
  for (const [name, before] of ctx.old.tools) {
    const after = ctx.new.tools.get(name);
    if (!after || sameRawSchema(before, after, key)) continue;
    reportSchemaPair(
      ctx,
      report,
      {
        tool: name,
        stable: `/tools/${name}/${field}`,
        oldPointer: `${before.pointer}/${field}`,
        newPointer: `${after.pointer}/${field}`,
        old: before[key],
        new: after[key],
        witnessKind: key === "input" ? "call" : "result",
        wrap:
          key === "input"
            ? (args) => ({ name, arguments: args })
            : (structuredContent) => ({ structuredContent }),
      },
      directions(before),
    );
  }
}

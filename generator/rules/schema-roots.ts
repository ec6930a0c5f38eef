import { isObject } from "../../json-schema/walk.js";
import type { RuleContext } from "./rule.js";

/**
 * Every JSON Schema written in the repository: whole schema documents and each tool's input/output.
 */
export function schemaRoots(
  ctx: RuleContext,
): { file: string; pointer: string; schema: unknown }[] {
  const roots: { file: string; pointer: string; schema: unknown }[] = [];
  for (const doc of ctx.schemaDocs) roots.push({ file: doc.file, pointer: "", schema: doc.json });
  for (const tool of ctx.tools)
    for (const k of ["input", "output"] as const)
      if (isObject(tool.doc[k]))
        roots.push({ file: tool.file, pointer: `/${k}`, schema: tool.doc[k] });
  return roots;
}

import { defineRule } from "../../diagnostics/rule.js";
import { generatorRule } from "./rule.js";

/**
 * A superseded tool names a replacement that exists in the same contract and is itself current:
 * the runtime serves the old name through an adapter over the replacement's handler, so the
 * replacement must have a handler of its own (no chains, no self-reference).
 */
export const supersededTool = generatorRule(
  defineRule({
    id: "SUPERSEDED_TOOL_INVALID",
    family: "generator",
    severity: "error",
    summary:
      "A superseded tool names an existing, current replacement tool of the same contract " +
      "(its adapter runs over the replacement's handler).",
    message: {
      missing:
        "{tool} is superseded by {replacement}, which this contract does not define: add schemas/tools/{replacement}.json or name an existing tool",
      self: "{tool} names itself as its replacement",
      chain:
        "{tool} is superseded by {replacement}, which is superseded by {next} in turn: name the current tool {final} instead",
    },
  }),
  (ctx, report) => {
    const replacementOf = new Map<string, string>();
    for (const t of ctx.tools)
      if (typeof t.doc.supersededBy === "string")
        replacementOf.set(String(t.doc.name), t.doc.supersededBy);
    const names = new Set(ctx.tools.map((t) => String(t.doc.name)));
    for (const t of ctx.tools) {
      const tool = String(t.doc.name);
      const replacement = replacementOf.get(tool);
      if (replacement === undefined) continue;
      const at = { file: t.file, pointer: "/supersededBy" };
      if (replacement === tool) report({ variant: "self", tool }, at);
      else if (!names.has(replacement)) report({ variant: "missing", tool, replacement }, at);
      else if (replacementOf.has(replacement)) {
        let final = replacement;
        const seen = new Set([tool]);
        while (replacementOf.has(final) && !seen.has(final)) {
          seen.add(final);
          final = replacementOf.get(final)!;
        }
        report(
          { variant: "chain", tool, replacement, next: replacementOf.get(replacement)!, final },
          at,
        );
      }
    }
  },
);

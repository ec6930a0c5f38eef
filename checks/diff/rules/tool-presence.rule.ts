import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import { sampleValue } from "../sample.js";

const removed = defineRule({
  id: "TOOL_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A tool was removed or renamed: old calls fail.",
  message:
    "tool {tool} was removed; old clients calling it now fail (ship a distinctly named replacement instead)",
});
const supersededRemoved = defineRule({
  id: "SUPERSEDED_TOOL_REMOVED",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary:
    "A superseded tool was removed with its adapter. It was in no release package and never " +
    "listed; the comparisons against each live approved release judge whether a host still holds it.",
  message: "superseded tool {tool} was removed (its replacement {replacement} stays)",
});
const retiredRemoved = defineRule({
  id: "TOOL_REMOVED_AFTER_RETIREMENT",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary:
    "A tool that a development baseline (git) still has was removed after every release " +
    "holding it was retired (contracts/retired-definitions.json): no host holds it.",
  message: "tool {tool} was removed; every release that held it is retired",
});
const added = defineRule({
  id: "TOOL_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A new tool (the server deploys first as a superset).",
  message: "new tool {tool}",
});

/** Tools that disappeared (breaking) or appeared (MINOR). */
export const toolPresence: DiffCheck = {
  rules: [removed, supersededRemoved, retiredRemoved, added],
  check(ctx, report) {
    for (const [name, tool] of ctx.old.tools) {
      if (ctx.new.tools.has(name)) continue;
      // Gone without breaking a host: the old side never packaged it, or no live release holds it.
      const gone = { tool: name, pointer: `/tools/${name}`, before: tool.input, after: null };
      const at = { side: "old" as const, pointer: tool.pointer };
      if (tool.supersededBy !== undefined && ctx.new.tools.has(tool.supersededBy)) {
        report(supersededRemoved, { tool: name, replacement: tool.supersededBy }, { ...gone, at });
        continue;
      }
      if (ctx.old.freedTools?.has(name)) {
        report(retiredRemoved, { tool: name }, { ...gone, at });
        continue;
      }
      const args = sampleValue(tool.input);
      report(
        removed,
        { tool: name },
        {
          tool: name,
          pointer: `/tools/${name}`,
          at: { side: "old", pointer: tool.pointer },
          witness: {
            kind: "call",
            acceptedBy: "old",
            rejectedBy: "new",
            value: { name, arguments: args },
            verified: ctx.checker.accepts(tool.input, args) === true,
          },
          before: tool.input,
          after: null,
        },
      );
    }
    for (const [name, tool] of ctx.new.tools)
      if (!ctx.old.tools.has(name))
        report(
          added,
          { tool: name },
          {
            tool: name,
            pointer: `/tools/${name}`,
            at: { side: "new", pointer: tool.pointer },
            before: null,
            after: tool.input,
          },
        );
  },
};

import { defineDiffRule, type DiffCheck } from "../diff-rule.js";
import { sampleValue } from "../sample.js";

const removed = defineDiffRule(
  "TOOL_REMOVED",
  "major",
  "A tool was removed or renamed: old calls fail.",
);
const added = defineDiffRule(
  "TOOL_ADDED",
  "minor",
  "A new tool (the server deploys first as a superset).",
);

/** Tools that disappeared (breaking) or appeared (MINOR). */
export const toolPresence: DiffCheck = {
  rules: [removed, added],
  check(ctx, report) {
    for (const [name, tool] of ctx.old.tools) {
      if (ctx.new.tools.has(name)) continue;
      const args = sampleValue(tool.input);
      report(removed, {
        tool: name,
        pointer: `/tools/${name}`,
        at: { side: "old", pointer: tool.pointer },
        message:
          `tool ${name} was removed; old clients calling it now fail ` +
          `(ship a distinctly named replacement instead)`,
        witness: {
          kind: "call",
          acceptedBy: "old",
          rejectedBy: "new",
          value: { name, arguments: args },
          verified: ctx.checker.accepts(tool.input, args) === true,
        },
        before: tool.input,
        after: null,
      });
    }
    for (const [name, tool] of ctx.new.tools)
      if (!ctx.old.tools.has(name))
        report(added, {
          tool: name,
          pointer: `/tools/${name}`,
          at: { side: "new", pointer: tool.pointer },
          message: `new tool ${name}`,
          before: null,
          after: tool.input,
        });
  },
};

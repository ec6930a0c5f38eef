import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import { sampleValue } from "../sample.js";

// MCP tasks: how a tool may be called. An absent `execution.taskSupport` means `forbidden`.
const callsAccepted: Record<string, readonly ("plain" | "task-augmented")[]> = {
  forbidden: ["plain"],
  optional: ["plain", "task-augmented"],
  required: ["task-augmented"],
};
const fallback = "forbidden";

const taskMessage = "{tool}: execution.taskSupport {before} → {after}; {calls} calls are {what}";

const narrowed = defineRule({
  id: "TOOL_TASK_SUPPORT_NARROWED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary:
    "A tool's execution.taskSupport refuses a way of calling it that it accepted: plain calls " +
    "once tasks are required, task-augmented calls once they are forbidden.",
  message: taskMessage,
});
const widened = defineRule({
  id: "TOOL_TASK_SUPPORT_WIDENED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary:
    "A tool's execution.taskSupport accepts a way of calling it that it refused (tasks became " +
    "optional): an addition.",
  message: taskMessage,
});

const modeOf = (value: string | undefined) =>
  value !== undefined && value in callsAccepted ? value : fallback;

/** `execution.taskSupport` changes per tool, judged on the calls each mode accepts. */
export const taskSupport: DiffCheck = {
  rules: [narrowed, widened],
  check(ctx, report) {
    for (const [name, before] of ctx.old.tools) {
      const after = ctx.new.tools.get(name);
      if (!after) continue;
      const b = modeOf(before.taskSupport),
        a = modeOf(after.taskSupport);
      if (a === b) continue;
      const lost = callsAccepted[b].filter((c) => !callsAccepted[a].includes(c));
      const gained = callsAccepted[a].filter((c) => !callsAccepted[b].includes(c));
      const [rule, calls, from] = lost.length
        ? ([narrowed, lost[0], "old"] as const)
        : ([widened, gained[0], "new"] as const);
      report(
        rule,
        {
          tool: name,
          before: b,
          after: a,
          calls,
          what: lost.length ? "refused" : "now accepted",
        },
        {
          tool: name,
          pointer: `/tools/${name}/execution/taskSupport`,
          at: { side: "new", pointer: `${after.pointer}/execution` },
          before: before.taskSupport ?? null,
          after: after.taskSupport ?? null,
          witness: {
            kind: "call",
            acceptedBy: from,
            rejectedBy: from === "old" ? "new" : "old",
            value: {
              name,
              arguments: sampleValue(before.input),
              calledAs: calls,
              taskSupport: { before: b, after: a },
            },
            verified: true,
          },
        },
      );
    }
  },
};

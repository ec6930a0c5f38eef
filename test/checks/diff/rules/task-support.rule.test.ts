import { taskSupport } from "../../../../checks/diff/rules/task-support.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/task-support.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, MCP tasks: TOOL_TASK_SUPPORT_NARROWED, TOOL_TASK_SUPPORT_WIDENED", () => {
  proveByCorpus(taskSupport, [
    {
      rule: "TOOL_TASK_SUPPORT_NARROWED",
      severity: "error",
      fires: "task-support-required",
      pointer: "/tools/list_issues/execution/taskSupport",
      message: /execution\.taskSupport optional → required; plain calls are refused/,
      quiet: "task-support-optional",
    },
    {
      rule: "TOOL_TASK_SUPPORT_WIDENED",
      severity: "note",
      fires: "task-support-optional",
      pointer: "/tools/list_issues/execution/taskSupport",
      message: /execution\.taskSupport forbidden → optional; task-augmented calls are now accepted/,
      quiet: { reversed: "task-support-optional" },
    },
  ]);
});

import { toolPresence } from "../../../../checks/diff/rules/tool-presence.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/tool-presence.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, tools added and removed: TOOL_REMOVED, SUPERSEDED_TOOL_REMOVED, TOOL_REMOVED_AFTER_RETIREMENT, TOOL_ADDED", () => {
  proveByCorpus(toolPresence, [
    {
      rule: "TOOL_REMOVED",
      severity: "error",
      fires: "tool-removed",
      pointer: "/tools/review_card",
      message: /tool review_card was removed; old clients calling it now fail/,
      quiet: "tool-removed-after-retirement",
    },
    {
      rule: "SUPERSEDED_TOOL_REMOVED",
      severity: "note",
      fires: "superseded-tool-removed",
      pointer: "/tools/complete_goal",
      message:
        /superseded tool complete_goal was removed \(its replacement complete_active_goal stays\)/,
      quiet: "tool-removed",
    },
    {
      rule: "TOOL_REMOVED_AFTER_RETIREMENT",
      severity: "note",
      fires: "tool-removed-after-retirement",
      pointer: "/tools/complete_goal",
      message: /tool complete_goal was removed; every release that held it is retired/,
      quiet: "tool-removed",
    },
    {
      rule: "TOOL_ADDED",
      severity: "note",
      fires: "tool-added",
      pointer: "/tools/get_goal_summary",
      message: /new tool get_goal_summary/,
      quiet: "tool-removed",
    },
  ]);
});

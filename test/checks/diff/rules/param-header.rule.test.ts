import { paramHeaders } from "../../../../checks/diff/rules/param-header.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/param-header.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, arguments sent as headers: PARAM_HEADER_ADDED, PARAM_HEADER_REMOVED", () => {
  proveByCorpus(paramHeaders, [
    {
      rule: "PARAM_HEADER_ADDED",
      severity: "error",
      fires: "param-header-added",
      pointer: "/tools/list_issues/inputSchema/properties/owner/x-mcp-header",
      message: /argument owner must now be sent as header Mcp-Param-Owner/,
      quiet: "param-header-removed",
    },
    {
      rule: "PARAM_HEADER_REMOVED",
      severity: "note",
      fires: "param-header-removed",
      pointer: "/tools/list_issues/inputSchema/properties/owner/x-mcp-header",
      message: /argument owner is no longer sent as header Mcp-Param-Owner/,
      quiet: "param-header-added",
    },
  ]);
});

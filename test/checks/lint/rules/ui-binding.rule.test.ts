import assert from "node:assert/strict";
import {
  cleanGateContract,
  findingsOf,
  gateContractWith,
  toolOf,
} from "../support/gate-contract.js";

describe("GATE_UI_ON_WRITE (checks/lint/rules/ui-binding.rule.ts)", () => {
  it("fires on a write tool that binds a UI resource", () => {
    const doc = gateContractWith((d) => {
      toolOf(d, "record_results")._meta = { "openai/outputTemplate": "ui://demo/x/index.html" };
    });
    assert.deepEqual(findingsOf("GATE_UI_ON_WRITE", doc), [
      [
        "error",
        "/tools/1/_meta",
        "record_results binds UI ui://demo/x/index.html but is not a read-only tool",
      ],
    ]);
  });

  it("stays quiet on the read-only tool that binds one", () => {
    const doc = cleanGateContract();
    assert.ok(toolOf(doc, "get_context")._meta.ui.resourceUri);
    assert.deepEqual(findingsOf("GATE_UI_ON_WRITE", doc), []);
  });
});

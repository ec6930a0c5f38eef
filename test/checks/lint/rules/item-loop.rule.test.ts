import assert from "node:assert/strict";
import type { Wire } from "../../../support/wire.js";
import { findingsOf, gateContractWith, toolOf } from "../support/gate-contract.js";

/** A per-item twin of the batch write record_results. */
function perItem(d: Wire): Wire {
  const single = structuredClone(toolOf(d, "record_results"));
  single.name = "record_result";
  single.inputSchema.properties.passed = { type: "boolean" };
  delete single.inputSchema.properties.assessments;
  single.inputSchema.required = [
    "learningSessionId",
    "expectedStateVersion",
    "clientRequestId",
    "passed",
  ];
  d.tools.push(single);
  return single;
}

describe("GATE_ITEM_LOOP (checks/lint/rules/item-loop.rule.ts)", () => {
  it("fires on a per-item tool beside the batch tool", () => {
    const doc = gateContractWith((d) => {
      perItem(d);
    });
    assert.deepEqual(findingsOf("GATE_ITEM_LOOP", doc), [
      [
        "error",
        "/tools/2",
        "record_result handles one item while record_results takes the whole batch; the model would loop (remove the per-item tool)",
      ],
    ]);
  });

  it("stays quiet when the per-item tool is app-only (the widget drives it, not the model)", () => {
    const doc = gateContractWith((d) => {
      perItem(d)._meta = { ui: { visibility: ["app"] } };
    });
    assert.deepEqual(findingsOf("GATE_ITEM_LOOP", doc), []);
  });
});

import assert from "node:assert/strict";
import {
  cleanGateContract,
  findingsOf,
  gateContractWith,
  toolOf,
} from "../support/gate-contract.js";

describe("GATE_COMPETING_IMPERATIVE (checks/lint/rules/imperative-channel.rule.ts)", () => {
  it("fires on a presentationAction beside the continuation", () => {
    const doc = gateContractWith((d) => {
      toolOf(d, "record_results").outputSchema.properties.presentationAction = {
        enum: ["showImage"],
      };
    });
    assert.deepEqual(findingsOf("GATE_COMPETING_IMPERATIVE", doc), [
      [
        "error",
        "/tools/1/outputSchema/properties/presentationAction",
        "record_results: output carries presentationAction, a second imperative channel",
      ],
    ]);
  });

  it("fires on a continuation beside requiredAction", () => {
    const doc = gateContractWith((d) => {
      toolOf(d, "record_results").outputSchema.properties.requiredAction = { enum: ["teach"] };
    });
    assert.deepEqual(findingsOf("GATE_COMPETING_IMPERATIVE", doc), [
      [
        "error",
        "/tools/1/outputSchema/properties/continuation",
        "record_results: output carries both continuation and requiredAction; keep exactly one",
      ],
    ]);
  });

  it("stays quiet on one imperative per output: requiredAction (a read), continuation (a write)", () => {
    assert.deepEqual(findingsOf("GATE_COMPETING_IMPERATIVE", cleanGateContract()), []);
  });
});

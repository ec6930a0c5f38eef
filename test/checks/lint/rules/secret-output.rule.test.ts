import assert from "node:assert/strict";
import { findingsOf, gateContractWith, toolOf } from "../support/gate-contract.js";

describe("GATE_SECRET_OUTPUT (checks/lint/rules/secret-output.rule.ts)", () => {
  it("fires on a model-visible output property named like a token", () => {
    const doc = gateContractWith((d) => {
      toolOf(d, "get_context").outputSchema.properties.accessToken = { type: "string" };
    });
    assert.deepEqual(findingsOf("GATE_SECRET_OUTPUT", doc), [
      [
        "error",
        "/tools/0/outputSchema/properties/accessToken",
        "get_context: model-visible output property accessToken looks like a secret, token, internal id or path",
      ],
    ]);
  });

  it("stays quiet on the same property of an app-only tool (the model never sees it)", () => {
    const doc = gateContractWith((d) => {
      const card = toolOf(d, "get_context");
      card._meta.ui.visibility = ["app"];
      card.outputSchema.properties.accessToken = { type: "string" };
    });
    assert.deepEqual(findingsOf("GATE_SECRET_OUTPUT", doc), []);
  });
});

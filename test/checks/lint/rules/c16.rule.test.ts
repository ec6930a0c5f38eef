import assert from "node:assert/strict";
import {
  cleanGateContract,
  findingsOf,
  gateContractWith,
  toolOf,
} from "../support/gate-contract.js";

// C16's anti-patterns; test/checks/c16-anti-patterns.test.ts runs their valid, invalid and
// adversarial fixtures.
describe("checks/lint/rules/c16.rule.ts", () => {
  describe("GATE_UNRECEIPTED_WRITE", () => {
    it("fires on a write whose output requires no receipt", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "record_results").outputSchema.required = [];
      });
      assert.deepEqual(findingsOf("GATE_UNRECEIPTED_WRITE", doc), [
        [
          "error",
          "/tools/1/outputSchema",
          "record_results writes, but its output requires no receipt and no successor state: a model would claim a save nothing proves",
        ],
      ]);
    });

    it("stays quiet when the output requires its receiptId", () => {
      const doc = cleanGateContract();
      assert.deepEqual(toolOf(doc, "record_results").outputSchema.required, ["receiptId"]);
      assert.deepEqual(findingsOf("GATE_UNRECEIPTED_WRITE", doc), []);
    });
  });

  describe("GATE_EXACT_STRING_MATCH", () => {
    it("fires on an input enum of phrases", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "record_results").inputSchema.properties.decision = {
          enum: ["I understood it", "not yet"],
        };
      });
      assert.deepEqual(findingsOf("GATE_EXACT_STRING_MATCH", doc), [
        [
          "error",
          "/tools/1/inputSchema/properties/decision",
          'record_results: input decision makes the model produce the exact phrase "I understood it"',
        ],
      ]);
    });

    it("fires on an input that takes back a prose output field", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "record_results").inputSchema.properties.instruction = { type: "string" };
      });
      assert.deepEqual(findingsOf("GATE_EXACT_STRING_MATCH", doc), [
        [
          "error",
          "/tools/1/inputSchema/properties/instruction",
          "record_results: input instruction takes back the prose output field instruction for the backend to match; send an id or the option's opaque payload",
        ],
      ]);
    });

    it("stays quiet on an enum of identifiers", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "record_results").inputSchema.properties.decision = {
          enum: ["achieved", "needsMorePractice"],
        };
      });
      assert.deepEqual(findingsOf("GATE_EXACT_STRING_MATCH", doc), []);
    });
  });
});

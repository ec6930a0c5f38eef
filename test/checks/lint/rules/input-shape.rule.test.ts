import assert from "node:assert/strict";
import { findingsOf, gateContractWith, toolOf } from "../support/gate-contract.js";

const item = (d: Parameters<typeof toolOf>[0]) =>
  toolOf(d, "record_results").inputSchema.properties.assessments.items;

describe("checks/lint/rules/input-shape.rule.ts", () => {
  describe("GATE_FREE_TEXT_INPUT", () => {
    it("fires on a nested input string that accepts prose", () => {
      const doc = gateContractWith((d) => {
        item(d).properties.feedback = { type: "string" };
      });
      assert.deepEqual(findingsOf("GATE_FREE_TEXT_INPUT", doc), [
        [
          "error",
          "/tools/1/inputSchema/properties/assessments/items/properties/feedback",
          'record_results: input assessments[].feedback accepts ordinary prose such as "a a", so chat free text reaches the backend',
        ],
      ]);
    });

    it("stays quiet when the same field admits identifiers only", () => {
      const doc = gateContractWith((d) => {
        item(d).properties.feedback = { type: "string", pattern: "^[a-z][a-z0-9-]*$" };
      });
      assert.deepEqual(findingsOf("GATE_FREE_TEXT_INPUT", doc), []);
    });
  });

  describe("GATE_INPUT_NOT_CLOSED", () => {
    it("fires on a nested input object that accepts unknown properties", () => {
      const doc = gateContractWith((d) => {
        delete item(d).additionalProperties;
      });
      assert.deepEqual(findingsOf("GATE_INPUT_NOT_CLOSED", doc), [
        [
          "error",
          "/tools/1/inputSchema/properties/assessments/items/additionalProperties",
          "record_results: input object accepts unknown properties; set additionalProperties:false",
        ],
      ]);
    });

    it("stays quiet when that object sets additionalProperties:false", () => {
      const doc = gateContractWith((d) => {
        item(d).additionalProperties = false;
      });
      assert.deepEqual(findingsOf("GATE_INPUT_NOT_CLOSED", doc), []);
    });
  });

  describe("GATE_DERIVABLE_INPUT", () => {
    it("fires on an input that restates backend state", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "get_context").inputSchema.properties.communicationLocale = {
          enum: ["en", "de"],
        };
      });
      assert.deepEqual(findingsOf("GATE_DERIVABLE_INPUT", doc), [
        [
          "error",
          "/tools/0/inputSchema/properties/communicationLocale",
          "get_context: input communicationLocale duplicates backend state or lets the model invent an identifier",
        ],
      ]);
    });

    it("stays quiet on an identifier the caller was given (goalId)", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "get_context").inputSchema.properties.goalId = {
          type: "string",
          pattern: "^[a-z][a-z0-9-]*$",
        };
      });
      assert.deepEqual(findingsOf("GATE_DERIVABLE_INPUT", doc), []);
    });
  });

  describe("GATE_MULTI_ACTION_TOOL", () => {
    it("warns on an action switch between two operations", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "get_context").inputSchema.properties.action = { enum: ["read", "reset"] };
      });
      assert.deepEqual(findingsOf("GATE_MULTI_ACTION_TOOL", doc), [
        [
          "warning",
          "/tools/0/inputSchema/properties/action",
          "get_context: input action selects between 2 operations; split them into cohesive tools",
        ],
      ]);
    });

    it("stays quiet when the switch allows one operation", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "get_context").inputSchema.properties.action = { enum: ["read"] };
      });
      assert.deepEqual(findingsOf("GATE_MULTI_ACTION_TOOL", doc), []);
    });
  });
});

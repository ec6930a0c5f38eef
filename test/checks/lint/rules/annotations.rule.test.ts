import assert from "node:assert/strict";
import { findingsOf, gateContractWith, toolOf } from "../support/gate-contract.js";

describe("checks/lint/rules/annotations.rule.ts", () => {
  describe("GATE_ANNOTATIONS_IMPLICIT", () => {
    it("fires on a hint left to the MCP default", () => {
      const doc = gateContractWith((d) => {
        delete toolOf(d, "get_context").annotations.openWorldHint;
      });
      assert.deepEqual(findingsOf("GATE_ANNOTATIONS_IMPLICIT", doc), [
        [
          "error",
          "/tools/0/annotations",
          "get_context: annotation openWorldHint is not stated; the MCP default applies",
        ],
      ]);
    });

    it("stays quiet when that hint is stated, whatever its value", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "get_context").annotations.openWorldHint = true;
      });
      assert.deepEqual(findingsOf("GATE_ANNOTATIONS_IMPLICIT", doc), []);
    });
  });

  describe("GATE_ANNOTATIONS_UNTRUTHFUL", () => {
    it("fires on a tool that claims to be read-only and destructive", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "get_context").annotations.destructiveHint = true;
      });
      assert.deepEqual(findingsOf("GATE_ANNOTATIONS_UNTRUTHFUL", doc), [
        [
          "error",
          "/tools/0/annotations",
          "get_context: readOnlyHint and destructiveHint are both true",
        ],
      ]);
    });

    it("stays quiet on a write that says it is destructive", () => {
      const doc = gateContractWith((d) => {
        toolOf(d, "record_results").annotations.destructiveHint = true;
      });
      assert.deepEqual(findingsOf("GATE_ANNOTATIONS_UNTRUTHFUL", doc), []);
    });
  });
});

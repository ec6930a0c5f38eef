import assert from "node:assert/strict";
import { findingsOf, gateContractWith, toolOf } from "../support/gate-contract.js";

describe("GATE_WRITE_ENVELOPE (checks/lint/rules/write-envelope.rule.ts)", () => {
  it("fires on a write that requires neither expectedStateVersion + clientRequestId nor a capability", () => {
    const doc = gateContractWith((d) => {
      toolOf(d, "record_results").inputSchema.required = ["learningSessionId", "assessments"];
    });
    assert.deepEqual(findingsOf("GATE_WRITE_ENVELOPE", doc), [
      [
        "error",
        "/tools/1/inputSchema/required",
        "record_results mutates state but does not require expectedStateVersion + clientRequestId or an opaque capability",
      ],
    ]);
  });

  it("stays quiet on a write that requires an opaque capability instead", () => {
    const doc = gateContractWith((d) => {
      const input = toolOf(d, "record_results").inputSchema;
      delete input.properties.expectedStateVersion;
      delete input.properties.clientRequestId;
      input.properties.gradingCapability = {
        type: "string",
        pattern: "^cap1\\.[A-Za-z0-9_-]{1,32}\\.[A-Za-z0-9_-]{32,4096}$",
      };
      input.required = ["learningSessionId", "gradingCapability", "assessments"];
    });
    assert.deepEqual(findingsOf("GATE_WRITE_ENVELOPE", doc), []);
  });
});

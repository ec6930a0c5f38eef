import assert from "node:assert/strict";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { docFromText } from "../../../checks/diff/baselines.js";

/** Read a one-tool tools/list document as a diff side, with what reading it reports. */
function read(inputSchema: Record<string, unknown>) {
  const diagnostics: Diagnostic[] = [];
  const text = JSON.stringify({ tools: [{ name: "find", description: "Find.", inputSchema }] });
  const doc = docFromText(text, "new.json", diagnostics);
  return { doc, diagnostics };
}

describe("checks/diff/baselines.ts: reading a compared document", () => {
  describe("CONTRACT_UNRESOLVED_REF (the diff inlines only local $refs)", () => {
    it("fires on a remote $ref and on a $ref to a definition the document lacks", () => {
      const { diagnostics } = read({
        type: "object",
        properties: {
          where: { $ref: "https://example.com/schemas/place.json" },
          when: { $ref: "#/$defs/Moment" },
        },
        $defs: { Place: { type: "string" } },
      });
      assert.deepEqual(
        diagnostics
          .filter((d) => d.ruleId === "CONTRACT_UNRESOLVED_REF")
          .map((d) => [d.severity, d.location, d.message]),
        [
          [
            "error",
            { file: "new.json", pointer: "/tools/0/inputSchema/properties/where/$ref" },
            "new.json: $ref https://example.com/schemas/place.json cannot be resolved inside " +
              "the schema; the diff only follows local references",
          ],
          [
            "error",
            { file: "new.json", pointer: "/tools/0/inputSchema/properties/when/$ref" },
            "new.json: $ref #/$defs/Moment cannot be resolved inside the schema; the diff only " +
              "follows local references",
          ],
        ],
      );
    });

    it("stays quiet on a $ref to a local definition, which it inlines", () => {
      const { doc, diagnostics } = read({
        type: "object",
        properties: { where: { $ref: "#/$defs/Place" } },
        $defs: { Place: { type: "string" } },
      });
      assert.deepEqual(diagnostics, []);
      assert.deepEqual(doc?.tools.get("find")?.input, {
        type: "object",
        properties: { where: { type: "string" } },
      });
    });
  });
});

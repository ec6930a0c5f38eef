import assert from "node:assert/strict";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { dereference } from "../../json-schema/deref.js";
import { SchemaRegistry } from "../../json-schema/registry.js";
import {
  badSchemaEdits,
  generateEdited,
  generatorFindings,
} from "../generator/rules/support/edited-contract.js";

const ID = "https://example.com/tree";

/** Inline `schema` (registered as the one document `ID`), collecting what it reports. */
function inlined(schema: Record<string, unknown>): { schema: unknown; diagnostics: Diagnostic[] } {
  const json = { ...schema, $id: ID };
  const { registry } = SchemaRegistry.build([
    { file: "tree.json", text: JSON.stringify(json), json, sha256: "" },
  ]);
  const diagnostics: Diagnostic[] = [];
  return {
    schema: dereference(json, ID, { file: "tree.json", pointer: "" }, registry, diagnostics),
    diagnostics,
  };
}

describe("json-schema/deref.ts: tool schemas inline into finite documents", () => {
  describe("REF_CYCLE", () => {
    it("fires on an envelope property that refers to its own document (bad-schemas/ref-cycle)", async () => {
      const found = await generatorFindings("REF_CYCLE", await badSchemaEdits("ref-cycle"));
      // Reported wherever the envelope is inlined (on its own and in each tool that returns it).
      assert.ok(found.length > 0);
      assert.deepEqual(
        [...new Set(found.map((f) => JSON.stringify(f)))].map((f) => JSON.parse(f)),
        [
          [
            "error",
            "schemas/envelopes/note.schema.json",
            "/properties/child/$ref",
            "$ref # refers back to itself through 1 level(s)",
          ],
        ],
      );
    });

    it("stays quiet on the same property referring to a shared definition", async () => {
      assert.deepEqual(
        await generateEdited([
          {
            file: "schemas/envelopes/note.schema.json",
            pointer: "/properties/child",
            value: {
              $ref: "https://skillpilot.com/schemas/openai/coach/v1/common#/$defs/StateVersion",
            },
          },
        ]),
        [],
      );
    });

    it("fires on a cycle through two definitions, naming its depth; a chain that ends inlines", () => {
      const cyclic = inlined({
        type: "object",
        properties: { node: { $ref: "#/$defs/A" } },
        $defs: {
          A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } },
          B: { type: "object", properties: { a: { $ref: "#/$defs/A" } } },
        },
      });
      assert.deepEqual(
        cyclic.diagnostics.map((d) => [d.ruleId, d.severity, d.location, d.message]),
        [
          [
            "REF_CYCLE",
            "error",
            { file: "tree.json", pointer: "/$defs/B/properties/a/$ref" },
            "$ref #/$defs/A refers back to itself through 2 level(s)",
          ],
        ],
      );
      const chain = inlined({
        type: "object",
        properties: { node: { $ref: "#/$defs/A" } },
        $defs: {
          A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } },
          B: { type: "string" },
        },
      });
      assert.deepEqual(chain.diagnostics, []);
      assert.deepEqual(chain.schema, {
        type: "object",
        properties: {
          node: { type: "object", properties: { b: { type: "string" } } },
        },
      });
    });
  });
});

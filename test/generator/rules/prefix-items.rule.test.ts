import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const NOTE = "schemas/envelopes/note.schema.json";

describe("PREFIX_ITEMS_UNSUPPORTED (generator/rules/prefix-items.rule.ts)", () => {
  it("fires on a tuple declared with prefixItems (bad-schemas/prefix-items)", async () => {
    assert.deepEqual(
      await generatorFindings("PREFIX_ITEMS_UNSUPPORTED", await badSchemaEdits("prefix-items")),
      [
        [
          "error",
          NOTE,
          "/properties/pair/prefixItems",
          "prefixItems is not supported; use an object with named properties",
        ],
      ],
    );
  });

  it("stays quiet on the same array declared with items", async () => {
    assert.deepEqual(
      await generateEdited([
        {
          file: NOTE,
          pointer: "/properties/pair",
          value: { type: "array", items: { type: "integer" }, maxItems: 2 },
        },
      ]),
      [],
    );
  });
});

import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const NOTE = "schemas/envelopes/note.schema.json";

describe("UNKNOWN_KEYWORD (generator/rules/unknown-keyword.rule.ts)", () => {
  it("fires on a misspelled keyword (bad-schemas/unknown-keyword)", async () => {
    assert.deepEqual(
      await generatorFindings("UNKNOWN_KEYWORD", await badSchemaEdits("unknown-keyword")),
      [["error", NOTE, "/properties/mood/maxLenght", 'unknown keyword "maxLenght" (strict mode)']],
    );
  });

  it("stays quiet on the keyword spelled right, and on the contract's own extension keyword", async () => {
    assert.deepEqual(
      await generateEdited([
        { file: NOTE, pointer: "/properties/count", value: { type: "string", maxLength: 10 } },
        {
          file: NOTE,
          pointer: "/properties/tool",
          value: { type: "string", "x-skillpilot-tool-reference": true },
        },
      ]),
      [],
    );
  });
});

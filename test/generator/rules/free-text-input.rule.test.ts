import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const WRITE = "schemas/tools/set_mood.json";

// More shapes of free text: the free-text-* fixtures of test/fixtures/bad-schemas (bad-schemas.test.ts).
describe("FREE_TEXT_INPUT (generator/rules/free-text-input.rule.ts)", () => {
  it("fires on a string input that accepts prose (bad-schemas/free-text-input)", async () => {
    assert.deepEqual(
      await generatorFindings("FREE_TEXT_INPUT", await badSchemaEdits("free-text-input")),
      [
        [
          "error",
          WRITE,
          "/input/properties/comment",
          'set_mood: input comment accepts ordinary prose such as "a a", so chat free text reaches the backend',
        ],
      ],
    );
  });

  it("stays quiet on the same input bounded to identifiers", async () => {
    assert.deepEqual(
      await generateEdited([
        {
          file: WRITE,
          pointer: "/input/properties/comment",
          value: { type: "string", pattern: "^[a-z][a-z0-9-]*$", maxLength: 40 },
        },
      ]),
      [],
    );
  });
});

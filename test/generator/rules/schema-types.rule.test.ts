import assert from "node:assert/strict";
import { generateEdited, generatorFindings } from "./support/edited-contract.js";

const NOTE = "schemas/envelopes/note.schema.json";
/** An edit that adds a property `count` with `schema` to the note envelope. */
const count = (schema: unknown) => [{ file: NOTE, pointer: "/properties/count", value: schema }];

// The CLI's wording of both: test/bin/schema-typos.test.ts.
describe("generator/rules/schema-types.rule.ts", () => {
  describe("TYPE_UNKNOWN", () => {
    it("fires on a misspelled type, suggesting the closest one", async () => {
      assert.deepEqual(await generatorFindings("TYPE_UNKNOWN", count({ type: "integr" })), [
        ["error", NOTE, "/properties/count/type", 'unknown type "integr"; did you mean "integer"?'],
      ]);
    });

    it("stays quiet on the type spelled right", async () => {
      assert.deepEqual(await generateEdited(count({ type: "integer" })), []);
    });
  });

  describe("KEYWORD_WRONG_TYPE", () => {
    it("fires on a keyword of another type (minimum on a string), naming its counterpart", async () => {
      assert.deepEqual(
        await generatorFindings("KEYWORD_WRONG_TYPE", count({ type: "string", minimum: 1 })),
        [
          [
            "error",
            NOTE,
            "/properties/count/minimum",
            "minimum applies to numbers, but this schema's type is string: remove minimum, or use minLength for a string",
          ],
        ],
      );
    });

    it("stays quiet on the keyword meant for the type (minLength on a string)", async () => {
      assert.deepEqual(await generateEdited(count({ type: "string", minLength: 1 })), []);
    });
  });
});

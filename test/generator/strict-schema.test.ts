import assert from "node:assert/strict";
import {
  badSchemaEdits,
  generateEdited,
  generatorFindings,
} from "./rules/support/edited-contract.js";

describe("generator/strict-schema.ts: validators compile under Ajv strict mode", () => {
  describe("SCHEMA_NOT_STRICT", () => {
    it("fires on a pattern in an untyped allOf branch (bad-schemas/strict-untyped-allof-pattern)", async () => {
      assert.deepEqual(
        await generatorFindings(
          "SCHEMA_NOT_STRICT",
          await badSchemaEdits("strict-untyped-allof-pattern"),
        ),
        [
          [
            "error",
            "schemas/tools/set_mood.json",
            "/input/properties/mood/allOf/1",
            'missing type "string" for keyword "pattern" at ' +
              '"https://skillpilot.com/schemas/openai/coach/v1/tools/set_mood#/properties/mood/allOf/1" ' +
              "(strictTypes); state the type the keyword applies to (strict mode)",
          ],
        ],
      );
    });

    it("stays quiet once the branch states the type its pattern applies to", async () => {
      assert.deepEqual(
        await generateEdited([
          {
            file: "schemas/tools/set_mood.json",
            pointer: "/input/properties/mood",
            value: {
              title: "Mood",
              allOf: [
                { type: "string", enum: ["calm", "busy"] },
                { type: "string", pattern: "^[a-z]+$" },
              ],
            },
          },
        ]),
        [],
      );
    });
  });
});

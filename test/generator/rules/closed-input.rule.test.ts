import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const WRITE = "schemas/tools/set_mood.json";

describe("INPUT_NOT_CLOSED (generator/rules/closed-input.rule.ts)", () => {
  it("fires on a tool input that accepts unknown properties (bad-schemas/input-not-closed)", async () => {
    assert.deepEqual(
      await generatorFindings("INPUT_NOT_CLOSED", await badSchemaEdits("input-not-closed")),
      [
        [
          "error",
          WRITE,
          "/input/additionalProperties",
          "set_mood: input object accepts unknown properties; set additionalProperties:false",
        ],
      ],
    );
  });

  it("stays quiet on the same input with additionalProperties:false", async () => {
    assert.deepEqual(
      await generateEdited([{ file: WRITE, pointer: "/input/additionalProperties", value: false }]),
      [],
    );
  });
});

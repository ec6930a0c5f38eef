import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const WRITE = "schemas/tools/set_mood.json";

describe("SCHEMA_PATTERN_INVALID (generator/rules/pattern.rule.ts)", () => {
  it("fires on a pattern that does not compile (bad-schemas/bad-pattern)", async () => {
    const [finding, ...more] = await generatorFindings(
      "SCHEMA_PATTERN_INVALID",
      await badSchemaEdits("bad-pattern"),
    );
    assert.deepEqual(more, []);
    assert.deepEqual(finding?.slice(0, 3), [
      "error",
      WRITE,
      "/input/properties/clientRequestId/pattern",
    ]);
    assert.match(finding[3], /^pattern "\(\[a-z" does not compile: .*Unterminated character class/);
  });

  it("fires on a patternProperties key that does not compile", async () => {
    const [finding] = await generatorFindings("SCHEMA_PATTERN_INVALID", [
      {
        file: "schemas/envelopes/note.schema.json",
        pointer: "/properties/tags",
        value: { type: "object", patternProperties: { "^(x": { type: "integer" } } },
      },
    ]);
    assert.deepEqual(finding?.slice(0, 3), [
      "error",
      "schemas/envelopes/note.schema.json",
      "/properties/tags/patternProperties/^(x",
    ]);
    assert.match(finding[3], /^patternProperties key "\^\(x" does not compile: /);
  });

  it("stays quiet on a pattern that compiles", async () => {
    assert.deepEqual(
      await generateEdited([
        {
          file: WRITE,
          pointer: "/input/properties/clientRequestId",
          value: { type: "string", pattern: "^([a-z]+)$" },
        },
      ]),
      [],
    );
  });
});

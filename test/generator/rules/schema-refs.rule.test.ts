import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const COMMON = "https://skillpilot.com/schemas/openai/coach/v1/common#/$defs";

describe("generator/rules/schema-refs.rule.ts", () => {
  describe("REF_REMOTE", () => {
    it("fires on a $ref outside the repository (bad-schemas/ref-remote)", async () => {
      assert.deepEqual(await generatorFindings("REF_REMOTE", await badSchemaEdits("ref-remote")), [
        [
          "error",
          "schemas/envelopes/note.schema.json",
          "/properties/mood/$ref",
          "$ref https://example.com/schemas/mood.json is remote: schemas resolve offline, against repository $ids only",
        ],
      ]);
    });

    it("stays quiet on a $ref to a repository $id", async () => {
      assert.deepEqual(
        await generateEdited([
          {
            file: "schemas/envelopes/note.schema.json",
            pointer: "/properties/mood/$ref",
            value: `${COMMON}/StateVersion`,
          },
        ]),
        [],
      );
    });
  });

  describe("REF_UNRESOLVED", () => {
    it("fires on a $ref to a definition no schema has (bad-schemas/ref-unresolved)", async () => {
      assert.deepEqual(
        await generatorFindings("REF_UNRESOLVED", await badSchemaEdits("ref-unresolved")),
        [
          [
            "error",
            "schemas/tools/read_note.json",
            "/input/properties/learningSessionId/$ref",
            `$ref ${COMMON}/NoSuchDef does not resolve to any repository $id and pointer; did you mean ${COMMON}/StateVersion?`,
          ],
        ],
      );
    });

    it("stays quiet on a $ref to a definition that exists", async () => {
      assert.deepEqual(
        await generateEdited([
          {
            file: "schemas/tools/read_note.json",
            pointer: "/input/properties/learningSessionId/$ref",
            value: `${COMMON}/LearningSessionId`,
          },
        ]),
        [],
      );
    });
  });
});

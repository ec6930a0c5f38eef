import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const NOTE = "schemas/envelopes/note.schema.json";

describe("TOOL_NAMES_LISTED (generator/rules/tool-names-listed.rule.ts)", () => {
  it("fires on an enum that lists tool names by hand (bad-schemas/tool-names-listed)", async () => {
    assert.deepEqual(
      await generatorFindings("TOOL_NAMES_LISTED", await badSchemaEdits("tool-names-listed")),
      [
        [
          "error",
          NOTE,
          "/properties/mood/enum",
          'this enum lists tool names by hand (read_note, set_mood): reference the common ToolName definition, or mark the schema with "x-skillpilot-tool-reference": true and drop the enum',
        ],
      ],
    );
  });

  it("fires on a marked schema that keeps an enum of its own", async () => {
    assert.deepEqual(
      await generatorFindings("TOOL_NAMES_LISTED", [
        { file: NOTE, pointer: "/properties/mood/x-skillpilot-tool-reference", value: true },
      ]),
      [
        [
          "error",
          NOTE,
          "/properties/mood/enum",
          'a schema marked "x-skillpilot-tool-reference" gets its enum from schemas/tools/: remove its enum',
        ],
      ],
    );
  });

  it("stays quiet on an enum that holds a tool name among other values", async () => {
    assert.deepEqual(
      await generateEdited([
        { file: NOTE, pointer: "/properties/mood/enum", value: ["calm", "read_note"] },
      ]),
      [],
    );
  });
});

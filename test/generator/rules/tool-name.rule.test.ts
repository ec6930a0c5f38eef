import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const WRITE = "schemas/tools/set_mood.json";

describe("TOOL_NAME_INVALID (generator/rules/tool-name.rule.ts)", () => {
  it("fires on a tool name that is not snake_case (bad-schemas/bad-tool-name)", async () => {
    assert.deepEqual(
      await generatorFindings("TOOL_NAME_INVALID", await badSchemaEdits("bad-tool-name")),
      [["error", WRITE, "/name", 'tool name "SetMood" is not snake_case of at most 64 characters']],
    );
  });

  it("fires on a snake_case name that matches neither its file nor its $id", async () => {
    assert.deepEqual(
      await generatorFindings("TOOL_NAME_INVALID", [
        { file: WRITE, pointer: "/name", value: "set_moods" },
      ]),
      [
        [
          "error",
          WRITE,
          "/name",
          "tool set_moods is defined in schemas/tools/set_mood.json; the file must be named set_moods.json",
        ],
        [
          "error",
          WRITE,
          "/$id",
          "tool set_moods has $id https://skillpilot.com/schemas/openai/coach/v1/tools/set_mood; it must end with /tools/set_moods",
        ],
      ],
    );
  });

  it("stays quiet on the name its file and $id carry", async () => {
    assert.deepEqual(
      await generateEdited([{ file: WRITE, pointer: "/name", value: "set_mood" }]),
      [],
    );
  });
});

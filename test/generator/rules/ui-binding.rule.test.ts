import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

describe("UI_BINDING_INVALID (generator/rules/ui-binding.rule.ts)", () => {
  it("fires on a write tool that binds UI (bad-schemas/ui-on-write-tool)", async () => {
    assert.deepEqual(
      await generatorFindings("UI_BINDING_INVALID", await badSchemaEdits("ui-on-write-tool")),
      [
        [
          "error",
          "schemas/tools/set_mood.json",
          "/ui",
          "set_mood binds UI but is not a read tool; domain writes stay unbound",
        ],
      ],
    );
  });

  it("fires on a read tool bound to a resource with no active URI", async () => {
    assert.deepEqual(
      await generatorFindings("UI_BINDING_INVALID", [
        { file: "schemas/tools/read_note.json", pointer: "/ui/resource", value: "cards" },
      ]),
      [
        [
          "error",
          "schemas/tools/read_note.json",
          "/ui/resource",
          "read_note binds UI resource cards, but release/line.json names no active URI for it",
        ],
      ],
    );
  });

  it("stays quiet on the read tool bound to an active resource", async () => {
    assert.deepEqual(
      await generateEdited([
        {
          file: "schemas/tools/read_note.json",
          pointer: "/ui/resource",
          value: "goal-visualization",
        },
      ]),
      [],
    );
  });
});

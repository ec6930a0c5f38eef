import assert from "node:assert/strict";
import { badSchemaEdits, generateEdited, generatorFindings } from "./support/edited-contract.js";

const READ = "schemas/tools/read_note.json";
const WRITE = "schemas/tools/set_mood.json";

describe("ANNOTATIONS_CONTRADICT_KIND (generator/rules/annotations-kind.rule.ts)", () => {
  it("fires on a read tool that is not readOnlyHint:true (bad-schemas/annotations-contradict-kind)", async () => {
    assert.deepEqual(
      await generatorFindings(
        "ANNOTATIONS_CONTRADICT_KIND",
        await badSchemaEdits("annotations-contradict-kind"),
      ),
      [
        [
          "error",
          READ,
          "/annotations/readOnlyHint",
          "read_note is a read tool but readOnlyHint is not true",
        ],
      ],
    );
  });

  it("fires on a write tool that claims readOnlyHint:true", async () => {
    assert.deepEqual(
      await generatorFindings("ANNOTATIONS_CONTRADICT_KIND", [
        { file: WRITE, pointer: "/annotations/readOnlyHint", value: true },
      ]),
      [
        [
          "error",
          WRITE,
          "/annotations/readOnlyHint",
          "set_mood mutates state but readOnlyHint is not false",
        ],
      ],
    );
  });

  it("stays quiet when the read tool changes a hint its kind does not decide (idempotentHint)", async () => {
    assert.deepEqual(
      await generateEdited([{ file: READ, pointer: "/annotations/idempotentHint", value: false }]),
      [],
    );
  });
});

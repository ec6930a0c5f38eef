import assert from "node:assert/strict";
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import { editJson, useProjectCopies } from "../../release/support/temp-project.js";

const tool = "schemas/tools/get_skillpilot_learning_context.json";
const generate = async (root: string) =>
  (await generateFromSources(await readContractSources(defaultPaths(root)))).diagnostics.filter(
    (d) => d.severity === "error",
  );

describe("HINT_JUSTIFICATION_WEAK (generator/rules/hint-justification.rule.ts): every tool justifies its reviewed hints", function () {
  this.timeout(120_000);
  const root = useProjectCopies();

  it("refuses a tool without hintJustifications (a required field of the meta-schema)", async () => {
    await editJson(root(), tool, (doc) => {
      delete doc.hintJustifications;
    });
    const found = await generate(root());
    assert.deepEqual(
      found.map((d) => [d.ruleId, d.location.file]),
      [["TOOL_DEFINITION_INVALID", tool]],
    );
    assert.match(found[0].message, /hintJustifications/);
  });

  it("refuses a justification that restates the hint or runs to several sentences", async () => {
    await editJson(root(), tool, (doc) => {
      const why = doc.hintJustifications as Record<string, string>;
      why.readOnlyHint = "readOnlyHint is true because the tool is read-only.";
      why.openWorldHint = "It reads private progress only. It posts nothing anywhere else.";
    });
    const found = await generate(root());
    assert.deepEqual(
      found.map((d) => [d.ruleId, d.location.pointer, d.message]),
      [
        [
          "HINT_JUSTIFICATION_WEAK",
          "/hintJustifications/readOnlyHint",
          "get_skillpilot_learning_context: the readOnlyHint justification names the hint itself; say what the tool reads, writes or contacts instead",
        ],
        [
          "HINT_JUSTIFICATION_WEAK",
          "/hintJustifications/openWorldHint",
          "get_skillpilot_learning_context: the openWorldHint justification is more than one sentence; keep it to one",
        ],
      ],
    );
  });

  it("keeps abbreviations and versions inside one sentence", async () => {
    await editJson(root(), tool, (doc) => {
      (doc.hintJustifications as Record<string, string>).destructiveHint =
        "Reads v1.2 progress only, e.g. the current step, and deletes nothing.";
    });
    assert.deepEqual(await generate(root()), []);
  });
});

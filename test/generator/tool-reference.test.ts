import assert from "node:assert/strict";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { miniContract } from "../support/temp-project.js";

/** The mini contract with its envelope's `mood` turned into a tool reference (no enum written). */
async function withToolReference(extraTool?: string) {
  const sources = await readContractSources(defaultPaths(miniContract));
  const files = sources.files.map((f) => {
    if (!f.file.endsWith("envelopes/note.schema.json")) return f;
    const doc = JSON.parse(f.text);
    doc.properties.mood = { type: "string", "x-skillpilot-tool-reference": true };
    return { ...f, text: JSON.stringify(doc) };
  });
  if (extraTool) {
    const base = files.find((f) => f.file.endsWith("tools/read_note.json"))!;
    const doc = JSON.parse(base.text);
    doc.name = extraTool;
    doc.$id = String(doc.$id).replace(/read_note$/, extraTool);
    files.push({ file: `schemas/tools/${extraTool}.json`, text: JSON.stringify(doc) });
  }
  return generateFromSources({ ...sources, files });
}

const snapshotOf = (result: Awaited<ReturnType<typeof generateFromSources>>) =>
  JSON.parse(result.files.find((f) => f.path.endsWith("contract.snapshot.json"))!.contents);

describe("tool names are derived from schemas/tools/ (TOOL_NAMES_LISTED, x-skillpilot-tool-reference)", () => {
  it("a marked schema gets every tool name of the contract, sorted, in its enum, the generated type and validator", async () => {
    const result = await withToolReference();
    assert.deepEqual(result.diagnostics, []);
    const mood = snapshotOf(result).envelopes.Note.properties.mood;
    assert.deepEqual(mood.enum, ["read_note", "set_mood"]);
    assert.equal(mood["x-skillpilot-tool-reference"], true);
    const types = result.files.find((f) => f.path.endsWith("types.gen.ts"))!.contents;
    assert.match(types, /"read_note" \| "set_mood"/);
  });

  it("a new tool file is named there without touching any other schema", async () => {
    const result = await withToolReference("list_notes");
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(snapshotOf(result).envelopes.Note.properties.mood.enum, [
      "list_notes",
      "read_note",
      "set_mood",
    ]);
  });
});

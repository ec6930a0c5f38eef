import assert from "node:assert/strict";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { repoRoot } from "../support/temp-project.js";

describe("generator pipeline (deterministic, drift-checkable output for L12 gates)", () => {
  it("produces identical bytes when run twice", async () => {
    const sources = await readContractSources(defaultPaths(repoRoot));
    const a = await generateFromSources(sources);
    const b = await generateFromSources(sources);
    assert.deepEqual(a.diagnostics, []);
    assert.ok(a.files.length >= 7);
    assert.deepEqual(b.files, a.files);
  });

  it("produces identical bytes whatever order the files are listed in", async () => {
    const sources = await readContractSources(defaultPaths(repoRoot));
    const reversed = { ...sources, files: [...sources.files].reverse() };
    const shuffled = {
      ...sources,
      files: [...sources.files].sort(
        (x, y) => (x.text.length % 7) - (y.text.length % 7) || (x.file < y.file ? 1 : -1),
      ),
    };
    const base = await generateFromSources(sources);
    assert.deepEqual((await generateFromSources(reversed)).files, base.files);
    assert.deepEqual((await generateFromSources(shuffled)).files, base.files);
  });

  it("marks every generated file DO NOT EDIT and embeds no timestamp", async () => {
    const { files } = await generateFromSources(await readContractSources(defaultPaths(repoRoot)));
    for (const f of files) {
      assert.match(f.contents.slice(0, 300), /DO NOT EDIT/, f.path);
      assert.doesNotMatch(f.contents, /20\d\d-\d\d-\d\dT\d\d:\d\d/, `${f.path} holds a timestamp`);
    }
  });
});

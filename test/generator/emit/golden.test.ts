import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import { miniContract, repoRoot } from "../../support/temp-project.js";

// Golden files per emitter, over the small fixture contract. Rewrite them with UPDATE_GOLDEN=1
// after an intended emitter change, and review the diff.
const goldenDir = path.join(repoRoot, "test/fixtures/golden/mini-contract");

describe("emitters (golden files; descriptors carry all four annotations, C4)", () => {
  const outputs = [
    "generated/types.gen.ts",
    "generated/validators.gen.js",
    "generated/validators.gen.d.ts",
    "generated/tools.gen.ts",
    "generated/handlers.gen.ts",
    "generated/contract.snapshot.json",
    "generated/manifest.gen.json",
  ];
  let files: Map<string, string>;
  before(async () => {
    const result = await generateFromSources(await readContractSources(defaultPaths(miniContract)));
    assert.deepEqual(result.diagnostics, []);
    files = new Map(result.files.map((f) => [f.path, f.contents]));
  });

  for (const output of outputs) {
    it(`${output} matches its golden file`, async () => {
      const actual = files.get(output);
      assert.ok(actual, `${output} was not emitted`);
      const golden = path.join(goldenDir, path.basename(output));
      if (process.env.UPDATE_GOLDEN) {
        await mkdir(goldenDir, { recursive: true });
        await writeFile(golden, actual);
      }
      assert.equal(actual, await readFile(golden, "utf8"));
    });
  }
});

import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { pointerSegments } from "../../../diagnostics/locate.js";
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import { miniContract, repoRoot } from "../../support/temp-project.js";

interface Edit {
  file: string;
  pointer?: string;
  value?: unknown;
  delete?: boolean;
  text?: string;
}
interface BadSchemaCase {
  edits: Edit[];
  expect: { ruleId: string; file?: string; pointer?: string; line?: number };
}

const fixtures = path.join(repoRoot, "test/fixtures/bad-schemas");

/** Apply one fixture edit to a file's JSON text. */
function applyEdit(text: string, edit: Edit): string {
  if (edit.text !== undefined) return edit.text;
  const json = JSON.parse(text);
  const segments = pointerSegments(edit.pointer!);
  const last = segments.pop()!;
  let node = json;
  for (const s of segments) node = node[s];
  if (edit.delete) delete node[last];
  else node[last] = edit.value;
  return `${JSON.stringify(json, null, 2)}\n`;
}

describe(
  "bad-schema fixtures give their diagnostic, with file and pointer (C5, " + "G9, G11, L9)",
  () => {
    let names: string[] = [];
    before(async () => {
      names = (await readdir(fixtures)).filter((n) => n.endsWith(".json")).sort();
      assert.ok(names.length >= 12);
    });

    it("the unmodified fixture contract is clean", async () => {
      const result = await generateFromSources(
        await readContractSources(defaultPaths(miniContract)),
      );
      assert.deepEqual(result.diagnostics, []);
    });

    it("every fixture yields exactly its rule at its location, and no output files", async () => {
      for (const name of names) {
        const fixture = JSON.parse(
          await readFile(path.join(fixtures, name), "utf8"),
        ) as BadSchemaCase;
        const sources = await readContractSources(defaultPaths(miniContract));
        const files = sources.files.map((f) => {
          const edits = fixture.edits.filter((e) => e.file === f.file);
          return { file: f.file, text: edits.reduce(applyEdit, f.text) };
        });
        const result = await generateFromSources({ ...sources, files });
        const hit = result.diagnostics.find(
          (d) =>
            d.ruleId === fixture.expect.ruleId &&
            (fixture.expect.file === undefined || d.location.file === fixture.expect.file) &&
            (fixture.expect.pointer === undefined ||
              d.location.pointer === fixture.expect.pointer) &&
            (fixture.expect.line === undefined || d.location.line === fixture.expect.line),
        );
        assert.ok(
          hit,
          `${name}: expected ${JSON.stringify(fixture.expect)}, got ` +
            `${JSON.stringify(result.diagnostics, null, 1)}`,
        );
        assert.equal(hit.severity, "error", name);
        assert.ok(hit.location.line === undefined || hit.location.line >= 1, name);
        assert.deepEqual(
          result.files,
          [],
          `${name}: nothing may be emitted from a broken contract`,
        );
      }
    });
  },
);

import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import { miniContract, repoRoot } from "../../support/temp-project.js";
import { applyEdit, type Edit } from "./support/edited-contract.js";

interface BadSchemaCase {
  edits: Edit[];
  expect: { ruleId: string; file?: string; pointer?: string; line?: number };
}

const fixtures = path.join(repoRoot, "test/fixtures/bad-schemas");

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

    it(
      "FREE_TEXT_INPUT leaves bounded write inputs alone: ids, slugs, enums, numbers, booleans, " +
        "date-times, uuids, emails, origin-bounded URIs, constraining allOf/anyOf (C5, G11)",
      async () => {
        const sources = await readContractSources(defaultPaths(miniContract));
        const bounded = {
          slug: { type: "string", pattern: "^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$", maxLength: 80 },
          code: { type: "string", pattern: "^[0-9]{4}$" },
          canned: { enum: ["I think I understood the rebase step", "not sure yet"] },
          count: { type: "integer", minimum: 0 },
          done: { type: "boolean" },
          at: { type: "string", format: "date-time" },
          day: { type: "string", format: "date" },
          email: { type: "string", format: "email" },
          origin: { type: "string", format: "uri", pattern: "^https://[^/]+$" },
          year: { allOf: [{ type: "string" }, { type: "string", pattern: "^[0-9]{4}$" }] },
          either: { anyOf: [{ type: "string", format: "uuid" }, { type: "integer" }] },
          grades: { type: "array", items: { enum: ["again", "good"] }, maxItems: 10 },
          requestIds: {
            type: "array",
            maxItems: 5,
            items: {
              $ref: "https://skillpilot.com/schemas/openai/coach/v1/common#/$defs/ClientRequestId",
            },
          },
        };
        const files = sources.files.map((f) => {
          if (f.file !== "schemas/tools/set_mood.json") return f;
          const json = JSON.parse(f.text);
          Object.assign(json.input.properties, bounded);
          return { file: f.file, text: `${JSON.stringify(json, null, 2)}\n` };
        });
        const result = await generateFromSources({ ...sources, files });
        assert.deepEqual(
          result.diagnostics.filter((d) => d.ruleId === "FREE_TEXT_INPUT"),
          [],
        );
      },
    );

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

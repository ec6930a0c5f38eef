import assert from "node:assert/strict";
import type { SourceFile } from "../../json-schema/source.js";
import { SchemaRegistry } from "../../json-schema/registry.js";
import { badSchemaEdits, generatorFindings } from "../generator/rules/support/edited-contract.js";

const COMMON = "https://skillpilot.com/schemas/openai/coach/v1/common";

/** A parsed schema file as the registry receives it. */
const source = (file: string, json: unknown): SourceFile => ({
  file,
  text: JSON.stringify(json),
  json,
  sha256: "",
});

/** The registry's findings on some files, as [rule, severity, file, pointer, message]. */
const registryFindings = (sources: SourceFile[]) =>
  SchemaRegistry.build(sources).diagnostics.map((d) => [
    d.ruleId,
    d.severity,
    d.location.file,
    d.location.pointer,
    d.message,
  ]);

describe("json-schema/registry.ts: every schema file has its own absolute $id", () => {
  describe("SCHEMA_DUPLICATE_ID", () => {
    it("fires on a second file declaring an $id already taken (bad-schemas/duplicate-id)", async () => {
      assert.deepEqual(
        await generatorFindings("SCHEMA_DUPLICATE_ID", await badSchemaEdits("duplicate-id")),
        [
          [
            "error",
            "schemas/envelopes/note.schema.json",
            "/$id",
            `$id ${COMMON} is declared by both schemas/envelopes/common.schema.json and schemas/envelopes/note.schema.json`,
          ],
        ],
      );
    });

    it("fires on an $id that differs only in its fragment, stays quiet on distinct ids", () => {
      assert.deepEqual(
        registryFindings([
          source("a.json", { $id: "https://example.com/a" }),
          source("b.json", { $id: "https://example.com/a#" }),
        ]),
        [
          [
            "SCHEMA_DUPLICATE_ID",
            "error",
            "b.json",
            "/$id",
            "$id https://example.com/a is declared by both a.json and b.json",
          ],
        ],
      );
      assert.deepEqual(
        registryFindings([
          source("a.json", { $id: "https://example.com/a" }),
          source("b.json", { $id: "https://example.com/b" }),
        ]),
        [],
      );
    });
  });

  describe("SCHEMA_MISSING_ID", () => {
    it("fires on a schema file without $id", async () => {
      assert.deepEqual(
        await generatorFindings("SCHEMA_MISSING_ID", [
          { file: "schemas/envelopes/note.schema.json", pointer: "/$id", delete: true },
        ]),
        [
          [
            "error",
            "schemas/envelopes/note.schema.json",
            "",
            "schemas/envelopes/note.schema.json has no absolute $id",
          ],
        ],
      );
    });

    it("fires on a relative $id, stays quiet on an absolute one", () => {
      assert.deepEqual(registryFindings([source("a.json", { $id: "schemas/a" })]), [
        ["SCHEMA_MISSING_ID", "error", "a.json", "", "a.json has no absolute $id"],
      ]);
      assert.deepEqual(registryFindings([source("a.json", { $id: "https://example.com/a" })]), []);
    });
  });
});

import assert from "node:assert/strict";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { miniContract } from "../support/temp-project.js";
import { generateEdited, generatorFindings } from "./rules/support/edited-contract.js";

const findings = (diagnostics: readonly Diagnostic[], rule: string) =>
  diagnostics
    .filter((d) => d.ruleId === rule)
    .map((d) => [d.severity, d.location.file, d.location.pointer, d.message]);

/** What the generator reports on the fixture contract with files dropped or added. */
async function generateWith(
  change: (files: { file: string; text: string }[]) => { file: string; text: string }[],
): Promise<Diagnostic[]> {
  const sources = await readContractSources(defaultPaths(miniContract));
  return (await generateFromSources({ ...sources, files: change([...sources.files]) })).diagnostics;
}

/** The fixture's read_note tool, copied under `file` with the `$id` and name given. */
async function readNoteCopy(file: string, id: string, name = "read_note") {
  const sources = await readContractSources(defaultPaths(miniContract));
  const json = JSON.parse(
    sources.files.find((f) => f.file === "schemas/tools/read_note.json")!.text,
  );
  return { file, text: `${JSON.stringify({ ...json, $id: id, name }, null, 2)}\n` };
}

const TOOLS = "https://skillpilot.com/schemas/openai/coach";

describe("generator/build-model.ts: the contract's files and meta-schemas", () => {
  describe("CONTRACT_INCOMPLETE", () => {
    it("fires on a contract without release/line.json, and on one without the tool-definition schema", async () => {
      assert.deepEqual(
        findings(
          await generateWith((files) => files.filter((f) => f.file !== "release/line.json")),
          "CONTRACT_INCOMPLETE",
        ),
        [["error", "release/line.json", undefined, "missing release/line.json"]],
      );
      assert.deepEqual(
        findings(
          await generateWith((files) =>
            files.filter((f) => f.file !== "schemas/tool-definition.schema.json"),
          ),
          "CONTRACT_INCOMPLETE",
        ),
        [["error", "release/line.json", undefined, "missing tool-definition.schema.json"]],
      );
    });

    it("stays quiet when every required file is there", async () => {
      assert.deepEqual(await generateWith((files) => files), []);
    });
  });

  describe("PLUGIN_INVALID", () => {
    it("fires on a plugin.json that fails plugin.schema.json (an MCP URL not ending in /mcp)", async () => {
      assert.deepEqual(
        await generatorFindings("PLUGIN_INVALID", [
          { file: "schemas/plugin.json", pointer: "/mcpUrl", value: "https://mcp.example.com/api" },
        ]),
        [
          [
            "error",
            "schemas/plugin.json",
            "/mcpUrl",
            '/mcpUrl must match pattern "^https://[^/]+/mcp$"',
          ],
        ],
      );
    });

    it("stays quiet on another MCP URL that ends in /mcp", async () => {
      assert.deepEqual(
        await generateEdited([
          { file: "schemas/plugin.json", pointer: "/mcpUrl", value: "https://mcp.example.com/mcp" },
        ]),
        [],
      );
    });
  });

  describe("SCHEMA_INVALID", () => {
    it("fires on a schema document that is not valid JSON Schema 2020-12 (a negative minProperties)", async () => {
      assert.deepEqual(
        await generatorFindings("SCHEMA_INVALID", [
          {
            file: "schemas/envelopes/note.schema.json",
            pointer: "/minProperties",
            value: -1,
          },
        ]),
        [
          [
            "error",
            "schemas/envelopes/note.schema.json",
            "/minProperties",
            "/minProperties must be >= 0",
          ],
        ],
      );
    });

    it("stays quiet on a minProperties of 2 (the envelope's required properties)", async () => {
      assert.deepEqual(
        await generateEdited([
          {
            file: "schemas/envelopes/note.schema.json",
            pointer: "/minProperties",
            value: 2,
          },
        ]),
        [],
      );
    });
  });

  describe("TOOL_DUPLICATE", () => {
    it("fires on a second tool file declaring a tool name already defined", async () => {
      const copy = await readNoteCopy(
        "schemas/tools/v2/read_note.json",
        `${TOOLS}/v2/tools/read_note`,
      );
      assert.deepEqual(
        findings(await generateWith((files) => [...files, copy]), "TOOL_DUPLICATE"),
        [
          [
            "error",
            "schemas/tools/v2/read_note.json",
            "/name",
            "tool read_note is defined in schemas/tools/read_note.json and schemas/tools/v2/read_note.json",
          ],
        ],
      );
    });

    it("stays quiet when the second file declares a tool of its own name (the contract generates)", async () => {
      const copy = await readNoteCopy(
        "schemas/tools/read_note_again.json",
        `${TOOLS}/v1/tools/read_note_again`,
        "read_note_again",
      );
      assert.deepEqual(await generateWith((files) => [...files, copy]), []);
    });
  });
});

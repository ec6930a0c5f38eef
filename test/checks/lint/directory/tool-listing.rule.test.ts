import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "../../../support/temp-project.js";
import type { Wire } from "../../../support/wire.js";
import { directoryFindingsOf, directoryListing } from "../support/directory-listing.js";

const tool = (doc: Wire, name: string) => doc.tools.find((t: Wire) => t.name === name);
const snapshot = async (): Promise<Wire> =>
  JSON.parse(await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8"));

describe("checks/lint/directory/tool-listing.rule.ts", () => {
  describe("DIRECTORY_TOOL_TITLE_MISSING", () => {
    it("fires under the Claude profile on a tool without annotations.title", () => {
      const doc = directoryListing();
      delete tool(doc, "get_context").annotations.title;
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_TOOL_TITLE_MISSING", doc, "claude-directory"),
        [["error", "/tools/0", "get_context has no annotations.title"]],
      );
    });

    it("fires under both profiles on a tool with no title anywhere", () => {
      const doc = directoryListing();
      delete tool(doc, "get_context").annotations.title;
      delete tool(doc, "get_context").title;
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_TOOL_TITLE_MISSING", doc, "openai-directory"),
        [["error", "/tools/0", "get_context has no title"]],
      );
    });

    it("stays quiet under the ChatGPT profile when the tool's own title is there", () => {
      const doc = directoryListing();
      delete tool(doc, "get_context").annotations.title;
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_TOOL_TITLE_MISSING", doc, "openai-directory"),
        [],
      );
    });
  });

  describe("DIRECTORY_TOOL_NAME_TOO_LONG", () => {
    it("fires on a 65-character tool name", () => {
      const doc = directoryListing();
      tool(doc, "get_context").name = `get_${"x".repeat(61)}`;
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_TOOL_NAME_TOO_LONG", doc, "openai-directory"),
        [
          [
            "error",
            "/tools/0/name",
            `"get_${"x".repeat(61)}" is 65 characters long; the directories accept at most 64`,
          ],
        ],
      );
    });

    it("stays quiet on a 64-character one", () => {
      const doc = directoryListing();
      tool(doc, "get_context").name = `get_${"x".repeat(60)}`;
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_TOOL_NAME_TOO_LONG", doc, "claude-directory"),
        [],
      );
    });
  });

  describe("DIRECTORY_HELPER_VISIBLE", () => {
    it("fires on the snapshot's app-only helper made visible to the model", async () => {
      const doc = await snapshot();
      const i = doc.tools.findIndex((t: Wire) => t.kind === "app-only");
      const helper = doc.tools[i];
      delete helper._meta.ui.visibility;
      assert.deepEqual(directoryFindingsOf("DIRECTORY_HELPER_VISIBLE", doc, "claude-directory"), [
        [
          "error",
          `/tools/${i}/_meta`,
          `${helper.name} is a widget helper but the model can see it; set _meta.ui.visibility to ["app"]`,
        ],
      ]);
    });

    it('stays quiet on the snapshot as generated (visibility ["app"])', async () => {
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_HELPER_VISIBLE", await snapshot(), "openai-directory"),
        [],
      );
    });
  });

  describe("DIRECTORY_OUTPUT_SCHEMA_MISSING", () => {
    it("warns under the ChatGPT profile on a tool without outputSchema", () => {
      const doc = directoryListing();
      delete tool(doc, "record_results").outputSchema;
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_OUTPUT_SCHEMA_MISSING", doc, "openai-directory"),
        [
          [
            "warning",
            "/tools/1",
            "record_results declares no outputSchema; models read its results less reliably",
          ],
        ],
      );
    });

    it("stays quiet under the Claude profile, and on a tool that declares one", () => {
      const doc = directoryListing();
      delete tool(doc, "record_results").outputSchema;
      assert.deepEqual(
        directoryFindingsOf("DIRECTORY_OUTPUT_SCHEMA_MISSING", doc, "claude-directory"),
        [],
      );
      assert.deepEqual(
        directoryFindingsOf(
          "DIRECTORY_OUTPUT_SCHEMA_MISSING",
          directoryListing(),
          "openai-directory",
        ),
        [],
      );
    });
  });
});

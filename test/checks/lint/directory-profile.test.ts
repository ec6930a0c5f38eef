import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { readDoc } from "../../../checks/diff/baselines.js";
import { lintDirectory } from "../../../checks/lint/directory/lint-directory.js";
import type { DirectoryProfile } from "../../../checks/lint/directory/directory-rule.js";
import { parseContractDoc } from "../../../contract-model/contract-doc.js";
import { repoRoot } from "../../support/temp-project.js";
import { cli, useProjectCopies } from "../../release/support/temp-project.js";
import type { Wire } from "../../support/wire.js";
import { directoryListing } from "./support/directory-listing.js";

const listing = directoryListing;
const run = (json: unknown, profile: DirectoryProfile) =>
  lintDirectory(parseContractDoc(json, "tools.json", [])!, profile, json);
const errors = (json: unknown, profile: DirectoryProfile) =>
  [
    ...new Set(
      run(json, profile)
        .filter((d) => d.severity === "error")
        .map((d) => d.ruleId),
    ),
  ].sort();
const tool = (doc: Wire, name: string) => doc.tools.find((t: Wire) => t.name === name);

describe("skillpilot lint --profile: the app directories' review rules", function () {
  this.timeout(120_000);

  it("passes the project's own snapshot under both profiles, and a clean listing", async () => {
    const doc = await readDoc(repoRoot, "generated/contract.snapshot.json", []);
    const raw = JSON.parse(await readFile(path.join(repoRoot, doc!.file), "utf8"));
    for (const profile of ["openai-directory", "claude-directory"] as const) {
      assert.deepEqual(lintDirectory(doc!, profile, raw), [], profile);
      assert.deepEqual(run(listing(), profile), [], profile);
    }
  });

  const cases: [string, string, (d: Wire) => void, DirectoryProfile[]][] = [
    [
      "DIRECTORY_HINT_CONTRADICTS_WRITES",
      "a tool that takes an idempotency key but claims readOnlyHint:true",
      (d) => {
        tool(d, "record_results").annotations.readOnlyHint = true;
      },
      ["openai-directory", "claude-directory"],
    ],
    [
      "DIRECTORY_HINT_CONTRADICTS_WRITES",
      "a read-only tool that returns a write receipt",
      (d) => {
        tool(d, "get_context").outputSchema.properties.receipt = { type: "object" };
      },
      ["openai-directory", "claude-directory"],
    ],
    [
      "DIRECTORY_TOOL_NAME_TOO_LONG",
      "a 65-character tool name",
      (d) => {
        tool(d, "get_context").name = `get_${"x".repeat(61)}`;
      },
      ["openai-directory", "claude-directory"],
    ],
    [
      "DIRECTORY_TOOL_TITLE_MISSING",
      "a tool without annotations.title (Claude reads that one)",
      (d) => {
        delete tool(d, "get_context").annotations.title;
      },
      ["claude-directory"],
    ],
    [
      "DIRECTORY_WIDGET_CSP",
      "a widget CSP with a wildcard origin",
      (d) => {
        tool(d, "get_context")._meta.ui.csp.connectDomains = ["https://*.example.com"];
      },
      ["openai-directory", "claude-directory"],
    ],
    [
      "DIRECTORY_WIDGET_CSP",
      "an OpenAI widget CSP that allows plain http",
      (d) => {
        delete tool(d, "get_context")._meta.ui.csp;
        tool(d, "get_context")._meta["openai/widgetCSP"] = {
          resource_domains: ["http://cdn.example.com"],
        };
      },
      ["openai-directory", "claude-directory"],
    ],
  ];
  for (const [ruleId, what, breakIt, profiles] of cases)
    it(`${ruleId}: ${what}`, () => {
      const doc = listing();
      breakIt(doc);
      for (const profile of ["openai-directory", "claude-directory"] as const)
        assert.equal(
          errors(doc, profile).includes(ruleId),
          profiles.includes(profile),
          `${profile}: ${JSON.stringify(run(doc, profile))}`,
        );
    });

  it("reads openWorldHint as ChatGPT review does: a read-only tool is not open-world there", () => {
    const doc = listing();
    tool(doc, "get_context").annotations.openWorldHint = true;
    assert.deepEqual(errors(doc, "openai-directory"), ["DIRECTORY_HINT_CONTRADICTS_WRITES"]);
    assert.deepEqual(errors(doc, "claude-directory"), []);
  });

  it("warns, not fails, when a listing declares no CSP on a widget tool (the resource may)", () => {
    const doc = listing();
    delete tool(doc, "get_context")._meta.ui.csp;
    const found = run(doc, "claude-directory");
    assert.deepEqual(
      found.map((d) => [d.ruleId, d.severity]),
      [["DIRECTORY_WIDGET_CSP", "warning"]],
    );
    assert.match(found[0].message, /declares no widget CSP/);
  });

  it("warns under the ChatGPT profile when a tool declares no outputSchema", () => {
    const doc = listing();
    delete tool(doc, "record_results").outputSchema;
    const found = run(doc, "openai-directory").filter((d) => d.ruleId.startsWith("DIRECTORY_"));
    assert.deepEqual(
      found.map((d) => [d.ruleId, d.severity]),
      [["DIRECTORY_OUTPUT_SCHEMA_MISSING", "warning"]],
    );
    assert.deepEqual(
      run(doc, "claude-directory").filter((d) => d.ruleId.startsWith("DIRECTORY_")),
      [],
    );
  });

  describe("on a project snapshot", () => {
    const root = useProjectCopies();

    it("fails both profiles when plugin.json names no privacy policy, and a visible helper", async () => {
      const file = path.join(root(), "generated/contract.snapshot.json");
      const snapshot = JSON.parse(await readFile(file, "utf8"));
      delete snapshot.plugin.directory;
      const helper = snapshot.tools.find((t: Wire) => t.kind === "app-only");
      delete helper._meta.ui.visibility;
      await writeFile(file, JSON.stringify(snapshot, null, 2));
      for (const profile of ["openai-directory", "claude-directory"]) {
        const out = cli(root(), "lint", "--profile", profile, "--format", "json");
        assert.equal(out.code, 1, out.stderr);
        const ids = JSON.parse(out.stdout).diagnostics.map((d: { ruleId: string }) => d.ruleId);
        assert.deepEqual(
          [...new Set(ids)].sort(),
          ["DIRECTORY_HELPER_VISIBLE", "DIRECTORY_PRIVACY_POLICY_MISSING"],
          profile,
        );
      }
    });

    it("refuses an unknown profile with a usage error", () => {
      const out = cli(root(), "lint", "--profile", "gemini-directory");
      assert.equal(out.code, 2);
      assert.match(out.stderr, /Allowed choices are openai-directory, claude-directory/);
    });
  });
});

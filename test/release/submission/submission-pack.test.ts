import assert from "node:assert/strict";
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createAjv } from "../../../json-schema/ajv.js";
import { prepare } from "../../../release/prepare/prepare.js";
import submissionSchema from "../../../release/submission/chatgpt-app-submission.schema.json" with {
  type: "json",
};
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import { editJson, regenerate, ruleIds, useProjectCopies } from "../support/temp-project.js";
import type { Wire } from "../../support/wire.js";

const casesFile = "release/submission/test-cases.json";
const draftRoot = (root: string) => path.join(root, "contracts/drafts");

async function readDraftJson(root: string, name: string): Promise<Wire> {
  const dir = path.join(draftRoot(root), "openai/skillpilot-coach");
  const [version] = await readdir(dir);
  return JSON.parse(await readFile(path.join(dir, version, name), "utf8"));
}

/** prepare must refuse and leave no draft behind. */
async function assertRefused(root: string, expected: string[]): Promise<void> {
  const result = await prepare(root);
  assert.deepEqual(ruleIds(result.diagnostics), expected, JSON.stringify(result.diagnostics));
  assert.equal(result.outcome, undefined);
  await assert.rejects(readdir(draftRoot(root)), { code: "ENOENT" });
}

describe("prepare: the directory submission pack", function () {
  this.timeout(180_000);
  const root = useProjectCopies();

  it("writes chatgpt-app-submission.json from the contract, valid against the published shape", async () => {
    const result = await prepare(root());
    assert.deepEqual(ruleIds(result.diagnostics), [], JSON.stringify(result.diagnostics));
    const pack = await readDraftJson(root(), "chatgpt-app-submission.json");
    const validate = createAjv({ allErrors: true }).compile(submissionSchema);
    assert.ok(validate({ ...pack }), JSON.stringify(validate.errors));
    const { model } = await generateFromSources(await readContractSources(defaultPaths(root())));
    assert.deepEqual(Object.keys(pack.tools).sort(), model!.tools.map((t) => t.name).sort());
    for (const t of model!.tools) {
      const entry = pack.tools[t.name];
      for (const hint of ["readOnlyHint", "destructiveHint", "openWorldHint"] as const)
        assert.equal(entry.annotations[hint], t.annotations[hint], `${t.name} ${hint}`);
      assert.equal(
        entry.justifications.read_only_justification,
        t.hintJustifications!.readOnlyHint,
      );
    }
    const plugin = JSON.parse(await readFile(path.join(root(), "schemas/plugin.json"), "utf8"));
    assert.equal(pack.app_info.display_name, plugin.displayName);
    assert.equal(pack.app_info.category, plugin.directory.category);
    const cases = JSON.parse(await readFile(path.join(root(), casesFile), "utf8"));
    assert.equal(pack.test_cases.length, cases.testCases.length);
    assert.equal(pack.test_cases[1].tools_triggered, cases.testCases[1].toolsTriggered.join(", "));
    assert.ok(pack.negative_test_cases.every((c: Wire) => c.tools_triggered === null));
    // Listed in the draft's manifest like every other file of it.
    const sums = await readDraftSums(root());
    assert.match(sums, / {2}chatgpt-app-submission\.json\n/);
    assert.match(sums, / {2}claude-directory-report\.json\n/);
  });

  it("writes the Claude directory report: connector URL, OAuth at connect, every check", async () => {
    await prepare(root());
    const report = await readDraftJson(root(), "claude-directory-report.json");
    assert.equal(report.reportFormat, "skillpilot-claude-directory-report/1");
    assert.equal(report.connectorUrl, "https://mcp-openai.skillpilot.com/claude/mcp");
    assert.equal(report.ready, true);
    const byId = Object.fromEntries(report.checks.map((c: Wire) => [c.id, c.status]));
    assert.equal(byId.CONNECTOR_AUTH_AT_CONNECT, "pass");
    assert.equal(byId.CONNECTOR_CLIENT_REGISTRATION, "manual");
    assert.equal(byId.DIRECTORY_HINT_CONTRADICTS_WRITES, "pass");
    assert.ok(report.tools.some((t: Wire) => t.appOnly));
  });

  it("refuses a test case naming a tool the contract does not have, and writes nothing", async () => {
    await editJson(root(), casesFile, (doc) => {
      (doc.testCases as Wire[])[0].toolsTriggered.push("delete_everything");
    });
    const result = await prepare(root());
    const found = result.diagnostics.find((d) => d.ruleId === "SUBMISSION_TEST_CASE_UNKNOWN_TOOL");
    assert.equal(found?.location.pointer, "/testCases/0/toolsTriggered/1");
    assert.match(found!.message, /"delete_everything"/);
    await assertRefused(root(), ["SUBMISSION_TEST_CASE_UNKNOWN_TOOL"]);
  });

  it("refuses fewer than 5 positive or 3 negative test cases", async () => {
    await editJson(root(), casesFile, (doc) => {
      doc.testCases = (doc.testCases as Wire[]).slice(0, 4);
      doc.negativeTestCases = (doc.negativeTestCases as Wire[]).slice(0, 2);
    });
    const result = await prepare(root());
    const messages = result.diagnostics
      .filter((d) => d.ruleId === "SUBMISSION_TEST_CASES_TOO_FEW")
      .map((d) => d.message);
    assert.equal(messages.length, 2);
    assert.match(messages[0], /has 4 positive test cases; .* at least 5/);
    assert.match(messages[1], /has 2 negative test cases; .* at least 3/);
    await assertRefused(root(), ["SUBMISSION_TEST_CASES_TOO_FEW"]);
  });

  it("refuses a missing, unparsable or misshapen test-case file", async () => {
    await editJson(root(), casesFile, (doc) => {
      (doc.negativeTestCases as Wire[])[0].toolsTriggered = ["get_skillpilot_learning_context"];
    });
    const shaped = await prepare(root());
    assert.match(JSON.stringify(shaped.diagnostics), /unknown property \\"toolsTriggered\\"/);
    await assertRefused(root(), ["SUBMISSION_TEST_CASES_INVALID"]);
    await writeFile(path.join(root(), casesFile), '{"testCases": [');
    const unparsable = await prepare(root());
    assert.match(JSON.stringify(unparsable.diagnostics), /is not valid JSON/);
    await rm(path.join(root(), casesFile));
    await assertRefused(root(), ["SUBMISSION_TEST_CASES_INVALID"]);
  });

  it("warns when a model-callable tool is triggered by no test case", async () => {
    await editJson(root(), casesFile, (doc) => {
      doc.testCases = (doc.testCases as Wire[]).filter(
        (c) => !c.toolsTriggered.includes("record_skillpilot_assessment_score"),
      );
    });
    const result = await prepare(root());
    assert.deepEqual(ruleIds(result.diagnostics), []);
    assert.deepEqual(ruleIds(result.diagnostics, "warning"), ["SUBMISSION_TOOL_UNTESTED"]);
    assert.equal(result.outcome, "written");
  });

  it("refuses a draft whose read tool's schemas declare a write", async () => {
    await editJson(root(), "schemas/tools/get_skillpilot_learning_context.json", (doc) => {
      const input = doc.input as Wire;
      input.properties.clientRequestId = { type: "string", format: "uuid" };
      input.required.push("clientRequestId");
    });
    await regenerate(root());
    await assertRefused(root(), ["DIRECTORY_HINT_CONTRADICTS_WRITES"]);
  });

  it("refuses plugin.json without its directory listing", async () => {
    await editJson(root(), "schemas/plugin.json", (doc) => {
      delete doc.directory;
    });
    await regenerate(root());
    await assertRefused(root(), ["DIRECTORY_PRIVACY_POLICY_MISSING"]);
  });
});

async function readDraftSums(root: string): Promise<string> {
  const dir = path.join(draftRoot(root), "openai/skillpilot-coach");
  const [version] = await readdir(dir);
  return readFile(path.join(dir, version, "SHA256SUMS"), "utf8");
}

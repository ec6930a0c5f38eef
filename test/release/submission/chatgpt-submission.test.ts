import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import type { ContractModel } from "../../../generator/model.js";
import { buildChatgptSubmission } from "../../../release/submission/chatgpt-submission.js";
import type { SubmissionCases } from "../../../release/submission/test-cases.js";
import { repoRoot } from "../../support/temp-project.js";

const CASES = "release/submission/test-cases.json";

const shown = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => [d.ruleId, d.severity, d.location, d.message]);

describe("release/submission/chatgpt-submission.ts: the ChatGPT directory's import file", () => {
  let model: ContractModel;
  let cases: SubmissionCases;
  before(async () => {
    model = (await generateFromSources(await readContractSources(defaultPaths(repoRoot)))).model!;
    cases = JSON.parse(await readFile(path.join(repoRoot, CASES), "utf8")) as SubmissionCases;
  });

  it("stays quiet on this project's contract and reviewed cases, and builds the file", () => {
    const { json, diagnostics } = buildChatgptSubmission(model, cases);
    assert.deepEqual(diagnostics, []);
    assert.ok(json);
    assert.equal((json.app_info as { category?: string }).category, "EDUCATION");
  });

  describe("SUBMISSION_APP_INFO_MISSING", () => {
    it("fires on a plugin.json without its directory block, and builds nothing", () => {
      const { directory: _, ...plugin } = model.plugin;
      const { json, diagnostics } = buildChatgptSubmission({ ...model, plugin }, cases);
      assert.equal(json, undefined);
      assert.deepEqual(shown(diagnostics), [
        [
          "SUBMISSION_APP_INFO_MISSING",
          "error",
          { file: "schemas/plugin.json", pointer: "/directory" },
          "schemas/plugin.json has no directory block; add subtitle, description, category and " +
            "privacyPolicyUrl",
        ],
      ]);
    });
  });

  describe("SUBMISSION_JUSTIFICATION_MISSING", () => {
    it("fires on a tool without hintJustifications, naming the tool and its file", () => {
      const [first, ...rest] = model.tools;
      const { hintJustifications: _, ...bare } = first;
      const { json, diagnostics } = buildChatgptSubmission(
        { ...model, tools: [bare, ...rest] },
        cases,
      );
      assert.equal(json, undefined);
      assert.deepEqual(shown(diagnostics), [
        [
          "SUBMISSION_JUSTIFICATION_MISSING",
          "error",
          { file: first.file },
          `${first.name} has no hintJustifications; the submission needs one sentence per hint`,
        ],
      ]);
    });
  });

  describe("SUBMISSION_SCHEMA_VIOLATION", () => {
    it("fires on a file the form would not import: fewer than 5 test cases, a subtitle over 30 characters, no description", () => {
      const few = { ...cases, testCases: cases.testCases.slice(0, 4) };
      assert.deepEqual(shown(buildChatgptSubmission(model, few).diagnostics), [
        [
          "SUBMISSION_SCHEMA_VIOLATION",
          "error",
          { file: CASES },
          "chatgpt-app-submission.json would not import: /test_cases must NOT have fewer than 5 items",
        ],
      ]);
      const directory = { ...(model.plugin.directory as object), subtitle: "x".repeat(31) };
      const long = { ...model, plugin: { ...model.plugin, directory } };
      const { json, diagnostics } = buildChatgptSubmission(long, cases);
      assert.equal(json, undefined);
      assert.deepEqual(shown(diagnostics), [
        [
          "SUBMISSION_SCHEMA_VIOLATION",
          "error",
          { file: CASES },
          "chatgpt-app-submission.json would not import: /app_info/subtitle must NOT have more " +
            "than 30 characters",
        ],
      ]);
      const { description: _, ...undescribed } = model.plugin.directory as Record<string, unknown>;
      const missing = { ...model, plugin: { ...model.plugin, directory: undescribed } };
      assert.deepEqual(shown(buildChatgptSubmission(missing, cases).diagnostics), [
        [
          "SUBMISSION_SCHEMA_VIOLATION",
          "error",
          { file: CASES },
          'chatgpt-app-submission.json would not import: /app_info missing required property "description"',
        ],
      ]);
    });

    it("stays quiet on exactly 5 test cases and a 30-character subtitle", () => {
      const directory = { ...(model.plugin.directory as object), subtitle: "x".repeat(30) };
      const { diagnostics } = buildChatgptSubmission(
        { ...model, plugin: { ...model.plugin, directory } },
        { ...cases, testCases: cases.testCases.slice(0, 5) },
      );
      assert.deepEqual(diagnostics, []);
    });
  });
});

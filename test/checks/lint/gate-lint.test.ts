import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { readDoc } from "../../../checks/diff/baselines.js";
import { parseContractDoc } from "../../../contract/contract-doc.js";
import { lintContract } from "../../../checks/lint/lint-contract.js";
import { repoRoot } from "../../support/temp-project.js";
import type { Wire } from "../../support/wire.js";

const sid = { type: "string", pattern: "^sps_[A-Za-z0-9_-]{22,64}$" };
const hints = (readOnly: boolean) => ({
  readOnlyHint: readOnly,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/** A clean two-tool contract; each test breaks exactly one thing. */
function clean(): Wire {
  return {
    tools: [
      {
        name: "get_context",
        annotations: hints(true),
        _meta: { ui: { resourceUri: `ui://demo/sha256-${"a".repeat(64)}/index.html` } },
        inputSchema: {
          type: "object",
          additionalProperties: false,
          required: ["learningSessionId"],
          properties: { learningSessionId: sid },
        },
        outputSchema: {
          type: "object",
          properties: {
            requiredAction: { enum: ["teach"] },
            instruction: { type: "string" },
            goalId: { type: "string" },
          },
        },
      },
      {
        name: "record_results",
        annotations: hints(false),
        inputSchema: {
          type: "object",
          additionalProperties: false,
          required: ["learningSessionId", "expectedStateVersion", "clientRequestId", "assessments"],
          properties: {
            learningSessionId: sid,
            expectedStateVersion: { type: "integer", minimum: 0 },
            clientRequestId: { type: "string", format: "uuid" },
            assessments: {
              type: "array",
              items: {
                type: "object",
                additionalProperties: false,
                required: ["passed"],
                properties: { passed: { type: "boolean" } },
              },
            },
          },
        },
        outputSchema: {
          type: "object",
          properties: { continuation: { type: "object" }, receiptId: { type: "string" } },
        },
      },
    ],
  };
}
const lint = (json: unknown) => lintContract(parseContractDoc(json, "tools.json", [])!);
const ids = (json: unknown) => [...new Set(lint(json).map((d) => d.ruleId))].sort();
const tool = (doc: Wire, name: string) => doc.tools.find((t: Wire) => t.name === name);

describe("skillpilot lint: the automatable gate (G1–G4, G11, C5, C16)", function () {
  // Spawns the CLI (tsx start-up) or runs property tests: allow for a loaded CI machine.
  this.timeout(120_000);
  it("passes a clean contract and the project's own snapshot (G9)", async () => {
    assert.deepEqual(lint(clean()), []);
    const doc = await readDoc(repoRoot, "generated/contract.snapshot.json", []);
    assert.deepEqual(
      lintContract(doc!).filter((d) => d.severity === "error"),
      [],
    );
  });

  const cases: [string, string, (d: Wire) => void][] = [
    [
      "GATE_WRITE_ENVELOPE",
      "a write without expectedStateVersion/clientRequestId or capability (C8, G5, G6)",
      (d) => {
        const s = tool(d, "record_results").inputSchema;
        s.required = ["learningSessionId", "assessments"];
      },
    ],
    [
      "GATE_FREE_TEXT_INPUT",
      "a free-text string input (C5, G11)",
      (d) => {
        tool(d, "record_results").inputSchema.properties.assessments.items.properties.feedback = {
          type: "string",
        };
      },
    ],
    [
      "GATE_INPUT_NOT_CLOSED",
      "an input object that accepts unknown properties (C5)",
      (d) => {
        delete tool(d, "record_results").inputSchema.properties.assessments.items
          .additionalProperties;
      },
    ],
    [
      "GATE_ITEM_LOOP",
      "a per-item tool beside the batch tool (G3, C16)",
      (d) => {
        const single = structuredClone(tool(d, "record_results"));
        single.name = "record_result";
        single.inputSchema.properties.passed = { type: "boolean" };
        delete single.inputSchema.properties.assessments;
        single.inputSchema.required = [
          "learningSessionId",
          "expectedStateVersion",
          "clientRequestId",
          "passed",
        ];
        d.tools.push(single);
      },
    ],
    [
      "GATE_COMPETING_IMPERATIVE",
      "presentationAction beside continuation (C10, G4)",
      (d) => {
        tool(d, "record_results").outputSchema.properties.presentationAction = {
          enum: ["showImage"],
        };
      },
    ],
    [
      "GATE_UI_ON_WRITE",
      "a UI binding on a write tool (C10, L9)",
      (d) => {
        tool(d, "record_results")._meta = { "openai/outputTemplate": "ui://demo/x/index.html" };
      },
    ],
    [
      "GATE_ANNOTATIONS_IMPLICIT",
      "an annotation left to its default (C4)",
      (d) => {
        delete tool(d, "get_context").annotations.openWorldHint;
      },
    ],
    [
      "GATE_ANNOTATIONS_UNTRUTHFUL",
      "a read-only tool that claims to be destructive (C4)",
      (d) => {
        tool(d, "get_context").annotations.destructiveHint = true;
      },
    ],
    [
      "GATE_SECRET_OUTPUT",
      "an access token in a model-visible output (C15)",
      (d) => {
        tool(d, "get_context").outputSchema.properties.accessToken = { type: "string" };
      },
    ],
    [
      "GATE_DERIVABLE_INPUT",
      "an input duplicating backend state (G2, C16)",
      (d) => {
        tool(d, "get_context").inputSchema.properties.communicationLocale = { enum: ["en", "de"] };
      },
    ],
    [
      "GATE_MULTI_ACTION_TOOL",
      "an action switch bundling several operations (G1)",
      (d) => {
        tool(d, "get_context").inputSchema.properties.action = { enum: ["read", "reset"] };
      },
    ],
  ];
  for (const [rule, what, breakIt] of cases)
    it(`${rule}: flags ${what}`, () => {
      const doc = clean();
      breakIt(doc);
      assert.deepEqual(ids(doc), [rule]);
      const d = lint(doc).find((x) => x.ruleId === rule)!;
      assert.match(d.location.pointer ?? "", /^\/tools\/\d+/);
    });

  it(
    "GATE_FREE_TEXT_INPUT decides by behaviour: a pattern that accepts ordinary prose is free " +
      "text, an identifier pattern is not (C5, G11)",
    () => {
      for (const pattern of ["[\\s\\S]*", "^.*$", "^[\\p{L}\\p{P}\\s]+$", "^[A-Za-z ]{1,80}$"]) {
        const doc = clean();
        tool(doc, "record_results").inputSchema.properties.note = { type: "string", pattern };
        assert.deepEqual(ids(doc), ["GATE_FREE_TEXT_INPUT"], pattern);
        assert.match(lint(doc)[0].message, /accepts ordinary prose/, pattern);
      }
      for (const pattern of ["^sps_[A-Za-z0-9_-]{22,64}$", "^[a-z][a-z0-9-]*$", "^[0-9]{4}$"]) {
        const doc = clean();
        tool(doc, "record_results").inputSchema.properties.code = { type: "string", pattern };
        assert.deepEqual(ids(doc), [], pattern);
      }
    },
  );

  it(
    "infers a tool's kind from its annotations when a tools/list has no kind, " +
      "and exempts app-only tools from secrets and loops",
    () => {
      const doc = clean();
      const card = structuredClone(tool(doc, "record_results"));
      Object.assign(card, { name: "record_result", _meta: { ui: { visibility: ["app"] } } });
      card.outputSchema.properties.internalPath = { type: "string" };
      doc.tools.push(card);
      assert.deepEqual(ids(doc), []);
    },
  );

  it(
    "prints file:line:col and exits 1 on violations, 0 on the project snapshot, " +
      "2 on unreadable input",
    async () => {
      const run = promisify(execFile);
      const cli = (args: string[]) =>
        run(
          path.join(repoRoot, "node_modules/.bin/tsx"),
          [path.join(repoRoot, "bin/skillpilot.ts"), ...args],
          { cwd: repoRoot },
        ).then(
          () => 0,
          (e: { code: number; stdout: string }) => e,
        );
      assert.equal(await cli(["lint"]), 0);
      const bad = (await cli(["lint", "test/fixtures/diff-corpus/tool-added/old.json"])) as {
        code: number;
        stdout: string;
      };
      assert.equal(bad.code, 1);
      assert.match(
        bad.stdout,
        /^test\/fixtures\/diff-corpus\/tool-added\/old\.json:\d+:\d+ {2}error {2}GATE_FREE_TEXT_INPUT/m,
      );
      assert.equal(((await cli(["lint", "nope.json"])) as { code: number }).code, 2);
    },
  );
});

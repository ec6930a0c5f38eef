import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { readDoc } from "../../../checks/diff/baselines.js";
import { parseContractDoc } from "../../../contract-model/contract-doc.js";
import { lintContract } from "../../../checks/lint/lint-contract.js";
import { repoRoot } from "../../support/temp-project.js";
import type { Wire } from "../../support/wire.js";
import { cleanGateContract, lintWire, toolOf } from "./support/gate-contract.js";

const lint = lintWire;
const clean = cleanGateContract;
const ids = (json: unknown) => [...new Set(lint(json).map((d) => d.ruleId))].sort();
const tool = toolOf;
const sid = { type: "string", pattern: "^sps_[A-Za-z0-9_-]{22,64}$" };

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

  // Fields that accept chat prose whatever their keywords look like (issue #13 item 8): the five of
  // the review first, then their kin.
  const freeTextFields: [string, unknown][] = [
    ["a lowercase-prose pattern", { type: "string", pattern: "^[a-z ,.]{1,2000}$" }],
    ["format regex", { type: "string", format: "regex" }],
    ["not a number", { not: { type: "number" } }],
    ["the empty schema", {}],
    ["an untyped pattern", { pattern: "[\\s\\S]*" }],
    ["the true schema", true],
    ["not a string (arrays of prose)", { not: { type: "string" } }],
    ["a string or null", { type: ["string", "null"] }],
    ["a short string", { type: "string", maxLength: 8 }],
    ["a long string", { type: "string", minLength: 1000 }],
    ["an all-caps pattern", { type: "string", pattern: "^[A-Z ]+$" }],
    ["a CJK-only pattern", { type: "string", pattern: "^\\p{Script=Han}+$" }],
    ["a Cyrillic pattern", { type: "string", pattern: "^[а-яА-Я ,]+$" }],
    ["a multi-line pattern", { type: "string", pattern: "^[a-z\\n ]+$" }],
    ["format uri", { type: "string", format: "uri" }],
    [
      "format uri with an https prefix only",
      { type: "string", format: "uri", pattern: "^https://" },
    ],
    ["format password", { type: "string", format: "password" }],
    ["an unknown format", { type: "string", format: "note-id" }],
    ["a numeric format on a string", { type: "string", format: "int32" }],
    [
      "an anyOf with a free branch",
      { anyOf: [{ type: "string", format: "uuid" }, { type: "string" }] },
    ],
    ["an array without items", { type: "array", maxItems: 3 }],
    ["an array of anything", { type: "array", items: {} }],
  ];

  it(
    "GATE_FREE_TEXT_INPUT judges every input field by behaviour: each field that accepts a " +
      "prose sample is free text, typed or not (C5, G11, issue #13 item 8)",
    () => {
      for (const [what, field] of freeTextFields) {
        const doc = clean();
        tool(doc, "record_results").inputSchema.properties.note = field;
        assert.deepEqual(ids(doc), ["GATE_FREE_TEXT_INPUT"], what);
        const [d] = lint(doc);
        assert.match(d!.message, /^record_results: input note(\[\])? accepts ordinary prose/, what);
        assert.match(d!.location.pointer ?? "", /^\/tools\/1\/inputSchema\/properties\/note/, what);
      }
    },
  );

  it(
    "GATE_FREE_TEXT_INPUT flags the review's five fields on complete_skillpilot_goal of the " +
      "project's snapshot, and nested, referenced and array fields where they are (C5, G11)",
    async () => {
      const text = await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8");
      for (const [what, field] of freeTextFields.slice(0, 5)) {
        const json = JSON.parse(text) as Wire;
        const i = json.tools.findIndex((t: Wire) => t.name === "complete_skillpilot_goal");
        json.tools[i].inputSchema.properties.note = field;
        const found = lintContract(parseContractDoc(json, "contract.snapshot.json", [])!);
        assert.deepEqual(
          found.map((d) => [d.ruleId, d.location.pointer]),
          [["GATE_FREE_TEXT_INPUT", `/tools/${i}/inputSchema/properties/note`]],
          what,
        );
      }
      const doc = clean();
      const input = tool(doc, "record_results").inputSchema;
      input.$defs = { Note: { type: "string" } };
      input.properties.assessments.items.properties.note = { $ref: "#/$defs/Note" };
      input.properties.tags = { type: "array", items: { type: "string", maxLength: 40 } };
      assert.deepEqual(
        lint(doc).map((d) => [d.location.pointer, d.message.replace(/ accepts.*/, "")]),
        [
          [
            "/tools/1/inputSchema/properties/assessments/items/properties/note",
            "record_results: input assessments[].note",
          ],
          ["/tools/1/inputSchema/properties/tags/items", "record_results: input tags[]"],
        ],
      );
    },
  );

  it(
    "GATE_FREE_TEXT_INPUT leaves bounded fields alone: prefixed ids, slugs, enums, numbers, " +
      "booleans, date-times, uuids, emails and origin-bounded URIs (C5, G11)",
    () => {
      const bounded: unknown[] = [
        sid,
        { type: "string", pattern: "^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$", maxLength: 80 },
        { type: "string", pattern: "^cap1\\.[A-Za-z0-9_-]{1,32}\\.[A-Za-z0-9_-]{32,4096}$" },
        { type: "string", pattern: "^[0-9]{4}$" },
        { enum: ["achieved", "needsMorePractice"] },
        { type: "integer", minimum: 0 },
        { type: "number" },
        { type: ["integer", "null"] },
        { type: "boolean" },
        { type: "string", format: "date-time" },
        { type: "string", format: "date" },
        { type: "string", format: "time" },
        { type: "string", format: "uuid" },
        { type: "string", format: "email" },
        { type: "string", format: "uri", pattern: "^https://[^/]+$" },
        { allOf: [{ type: "string" }, { pattern: "^[0-9]{4}$" }] },
        { anyOf: [{ type: "string", format: "uuid" }, { type: "integer" }] },
        { type: "array", items: { enum: ["again", "good"] }, maxItems: 10 },
        { not: { type: ["string", "array", "object"] } },
      ];
      for (const field of bounded) {
        const doc = clean();
        tool(doc, "record_results").inputSchema.properties.code = field;
        assert.deepEqual(ids(doc), [], JSON.stringify(field));
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

import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { docFromText } from "../../../checks/diff/baselines.js";
import { diffContracts, diffFailed } from "../../../checks/diff/contract-diff.js";
import type { ContractDoc } from "../../../contract-model/contract-doc.js";
import { diffChecks } from "../../../checks/diff/rules/index.js";
import type { Wire } from "../../support/wire.js";

const corpus = path.resolve("test/fixtures/diff-corpus");
const cases = readdirSync(corpus)
  .filter((d) => statSync(path.join(corpus, d)).isDirectory())
  .sort();

interface Expected {
  description: string;
  verdict: "breaking" | "compatible";
  requiredBump: string;
  rules: string[];
  exitCode: number;
  problems: string[];
  /**
   * Optional exact wording per rule id: checks that a finding reads from the right side's point of
   * view.
   */
  messages?: Record<string, string>;
}

const load = (file: string): { doc: ContractDoc; json: Wire } => {
  const text = readFileSync(file, "utf8");
  const doc = docFromText(text, path.relative(process.cwd(), file), []);
  assert.ok(doc, `${file} parses`);
  return { doc, json: JSON.parse(text) };
};

// An independent Ajv (not the diff's own checker) re-proves every witness.
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats.default(ajv);
const validates = (schema: unknown, value: unknown) =>
  ajv.validate(schema as object, value) as boolean;

const toolSchema = (json: Wire, name: string, key: "inputSchema" | "outputSchema") => {
  const list = Array.isArray(json) ? json : json.tools;
  return list.find((t: Wire) => t.name === name)?.[key];
};

describe("Contract-Diff corpus (L6, L12.2)", () => {
  it("checks the wording of input and output findings on corpus cases (L12.2)", () => {
    const worded = cases.flatMap((c) =>
      Object.keys(
        (JSON.parse(readFileSync(path.join(corpus, c, "expected.json"), "utf8")) as Expected)
          .messages ?? {},
      ),
    );
    assert.ok(
      worded.some((id) => id.startsWith("INPUT_")) && worded.some((id) => id.startsWith("OUTPUT_")),
      worded.join(", "),
    );
  });

  it(
    "holds at least 40 before/after pairs, each with an expected verdict and " +
      "bump, covering every diff rule",
    () => {
      assert.ok(cases.length >= 40, `only ${cases.length} cases`);
      const covered = new Set(
        cases.flatMap(
          (c) =>
            (JSON.parse(readFileSync(path.join(corpus, c, "expected.json"), "utf8")) as Expected)
              .rules,
        ),
      );
      const all = diffChecks.flatMap((c) => c.rules.map((r) => r.id));
      assert.deepEqual(
        all.filter((id) => !covered.has(id)),
        [],
      );
    },
  );

  for (const name of cases) {
    const expected = JSON.parse(
      readFileSync(path.join(corpus, name, "expected.json"), "utf8"),
    ) as Expected;
    it(
      `${name}: ${expected.description} → ${expected.verdict}, ` +
        `${expected.requiredBump} (L6, L12.2)`,
      () => {
        const oldSide = load(path.join(corpus, name, "old.json"));
        const newSide = load(path.join(corpus, name, "new.json"));
        const result = diffContracts([oldSide.doc], newSide.doc, {
          waivers: [],
          now: new Date("2026-06-01T00:00:00Z"),
        });
        assert.deepEqual([...new Set(result.findings.map((f) => f.ruleId))].sort(), expected.rules);
        assert.equal(result.requiredBump, expected.requiredBump);
        assert.equal(result.breaking ? "breaking" : "compatible", expected.verdict);
        assert.deepEqual(
          result.problems.map((p) => p.ruleId),
          expected.problems,
        );
        assert.equal(diffFailed(result) ? 1 : 0, expected.exitCode);
        for (const [ruleId, message] of Object.entries(expected.messages ?? {}))
          assert.deepEqual(
            result.findings.filter((f) => f.ruleId === ruleId).map((f) => f.message),
            [message],
            `${ruleId} wording`,
          );
        // Results are judged by old clients: an output finding never speaks of what the new schema
        // "accepts".
        for (const f of result.findings.filter(
          (x) => x.ruleId.startsWith("OUTPUT_") || x.ruleId === "ENVELOPE_WIDENED",
        ))
          assert.doesNotMatch(
            f.message,
            /no longer accepted|became required|the new schema (accepts|pins)/,
            `${f.ruleId} is worded as an input`,
          );
        for (const f of result.findings.filter((x) => x.bump === "major")) {
          assert.ok(f.witness, `${f.ruleId} at ${f.pointer} has a witness`);
          assert.equal(f.witness.verified, true, `${f.ruleId} at ${f.pointer}: witness verified`);
          if (f.witness.kind === "call" && f.ruleId.startsWith("INPUT_")) {
            const args = (f.witness.value as { arguments: unknown }).arguments;
            assert.equal(
              validates(toolSchema(oldSide.json, f.tool!, "inputSchema"), args),
              true,
              "old input accepts the witness call",
            );
            assert.equal(
              validates(toolSchema(newSide.json, f.tool!, "inputSchema"), args),
              false,
              "new input rejects the witness call",
            );
          }
          if (f.witness.kind === "result") {
            const content = (f.witness.value as { structuredContent: unknown }).structuredContent;
            const side = (s: "old" | "new") =>
              toolSchema(s === "old" ? oldSide.json : newSide.json, f.tool!, "outputSchema");
            assert.equal(
              validates(side(f.witness.acceptedBy), content),
              true,
              "accepting side accepts the result",
            );
            assert.equal(
              validates(side(f.witness.rejectedBy), content),
              false,
              "rejecting side rejects the result",
            );
          }
        }
      },
    );
  }
});

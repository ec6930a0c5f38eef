import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { docFromText } from "../../../../checks/diff/baselines.js";
import { type DiffResult, diffContracts } from "../../../../checks/diff/contract-diff.js";
import type { ContractDoc } from "../../../../contract-model/contract-doc.js";
import type { Wire } from "../../../support/wire.js";

/** One side of a corpus case: the parsed diff document and the raw JSON. */
export interface CaseSide {
  doc: ContractDoc;
  json: Wire;
}

/** Read one side of a corpus case as the diff reads it. */
export function loadSide(file: string): CaseSide {
  const text = readFileSync(file, "utf8");
  const doc = docFromText(text, path.relative(process.cwd(), file), []);
  assert.ok(doc, `${file} parses`);
  return { doc, json: JSON.parse(text) };
}

// An independent Ajv (not the diff's own checker) re-proves every witness; foreign documents use
// formats it does not know (`uint`, …), which it ignores quietly.
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false });
addFormats.default(ajv);
// Foreign schemas may name another draft's meta-schema; the keywords compared here are the same.
const validates = (schema: unknown, value: unknown) => {
  const { $schema: _meta, ...rest } = schema as Record<string, unknown>;
  return ajv.validate(rest, value) as boolean;
};

const toolSchema = (json: Wire, name: string, key: "inputSchema" | "outputSchema") => {
  const list = Array.isArray(json) ? json : (json.tools ?? json.result?.tools);
  return list.find((t: Wire) => t.name === name)?.[key];
};

/**
 * Every breaking finding carries a witness the diff verified, and an independent Ajv agrees: the
 * accepting side's schema accepts it, and the rejecting side's schema refuses it — or, for an
 * `undeclared` witness, merely accepts it without declaring the property it relies on.
 */
export function assertWitnessesProven(result: DiffResult, oldSide: CaseSide, newSide: CaseSide) {
  const sideJson = (s: "old" | "new") => (s === "old" ? oldSide.json : newSide.json);
  for (const f of result.findings.filter((x) => x.bump === "major")) {
    assert.ok(f.witness, `${f.ruleId} at ${f.pointer} has a witness`);
    assert.equal(f.witness.verified, true, `${f.ruleId} at ${f.pointer}: witness verified`);
    const kind = f.witness.kind;
    if (kind !== "call" && kind !== "result") continue;
    if (kind === "call" && !f.ruleId.startsWith("INPUT_")) continue;
    const key = kind === "call" ? "inputSchema" : "outputSchema";
    const value =
      kind === "call"
        ? (f.witness.value as { arguments: unknown }).arguments
        : (f.witness.value as { structuredContent: unknown }).structuredContent;
    const schema = (s: "old" | "new") => toolSchema(sideJson(s), f.tool!, key);
    assert.equal(
      validates(schema(f.witness.acceptedBy), value),
      true,
      `${f.ruleId}: the ${f.witness.acceptedBy} schema accepts the witness`,
    );
    if (f.witness.effect !== "undeclared")
      assert.equal(
        validates(schema(f.witness.rejectedBy), value),
        false,
        `${f.ruleId}: the ${f.witness.rejectedBy} schema rejects the witness`,
      );
  }
}

/** The corpus of Contract-Diff cases: one folder per case, `old.json`, `new.json`, `expected.json`. */
export const corpusDir = path.resolve("test/fixtures/diff-corpus");

/**
 * Diff one corpus case as the corpus test does (its development baseline's freed tools applied);
 * `reversed` compares its new side against its old one.
 */
export function diffCase(name: string, reversed = false): DiffResult {
  const dir = path.join(corpusDir, name);
  const [before, after] = reversed ? ["new.json", "old.json"] : ["old.json", "new.json"];
  const oldSide = loadSide(path.join(dir, before));
  const freed = path.join(dir, "freed-tools.json");
  if (!reversed && existsSync(freed))
    oldSide.doc.freedTools = new Set(JSON.parse(readFileSync(freed, "utf8")) as string[]);
  return diffContracts([oldSide.doc], loadSide(path.join(dir, after)).doc, {
    waivers: [],
    now: new Date("2026-06-01T00:00:00Z"),
  });
}

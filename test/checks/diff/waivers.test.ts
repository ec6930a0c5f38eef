import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { docFromText } from "../../../checks/diff/baselines.js";
import { diffContracts, diffFailed, fingerprint } from "../../../checks/diff/contract-diff.js";
import type { ContractDoc } from "../../../contract-model/contract-doc.js";
import { parseWaivers, type Waiver } from "../../../checks/diff/waivers.js";

const corpus = path.resolve("test/fixtures/diff-corpus");
const pair = (name: string): [ContractDoc, ContractDoc] => {
  const read = (f: string) =>
    docFromText(readFileSync(path.join(corpus, name, f), "utf8"), `${name}/${f}`, [])!;
  return [read("old.json"), read("new.json")];
};
const now = new Date("2026-06-01T12:00:00Z");

describe("Contract-Diff waivers (L12.2)", () => {
  const [oldDoc, newDoc] = pair("input-enum-narrowed");
  const finding = () => diffContracts([oldDoc], newDoc, { waivers: [], now }).findings[0];
  const waiver = (expires: string, fp = finding().fingerprint): Waiver => ({
    fingerprint: fp,
    ruleId: "INPUT_ENUM_NARROWED",
    reason: "no client ever sent skipped",
    approver: "release-lead",
    expires,
  });

  it("fingerprints a finding by rule, tool, pointer and witness, not by message text (L12.2)", () => {
    const f = finding();
    assert.match(f.fingerprint, /^sha256:[0-9a-f]{64}$/);
    // The same change with a reworded tool description elsewhere keeps its fingerprint.
    const edited = structuredClone(newDoc);
    edited.tools.get("complete_goal")!.description = "Reworded.";
    const again = diffContracts([oldDoc], edited, { waivers: [], now }).findings.find(
      (x) => x.ruleId === f.ruleId,
    )!;
    assert.equal(again.fingerprint, f.fingerprint);
    assert.notEqual(fingerprint(f.ruleId, f.tool, f.pointer, "a"), f.fingerprint);
  });

  it("a valid waiver turns the breaking finding into a waived note and the diff passes", () => {
    const result = diffContracts([oldDoc], newDoc, { waivers: [waiver("2026-12-31")], now });
    assert.equal(result.breaking, false);
    assert.equal(result.findings[0].severity, "note");
    assert.equal(result.findings[0].waiver?.approver, "release-lead");
    assert.equal(diffFailed(result), false);
  });

  it("an expired waiver is an error and no longer hides the break (L12.2)", () => {
    const result = diffContracts([oldDoc], newDoc, { waivers: [waiver("2026-05-31")], now });
    assert.equal(result.breaking, true);
    assert.deepEqual(
      result.problems.map((p) => p.ruleId),
      ["WAIVER_EXPIRED"],
    );
    assert.equal(diffFailed(result), true);
  });

  it("a waiver is still valid on its expiry day", () => {
    assert.equal(
      diffContracts([oldDoc], newDoc, { waivers: [waiver("2026-06-01")], now }).breaking,
      false,
    );
  });

  it("an unused waiver is an error", () => {
    const [o, n] = pair("guard-key-order");
    const result = diffContracts([o], n, { waivers: [waiver("2026-12-31")], now });
    assert.deepEqual(
      result.problems.map((p) => p.ruleId),
      ["WAIVER_UNUSED"],
    );
    assert.equal(diffFailed(result), true);
  });

  it("changed bytes under a served ui:// URI cannot be waived (L10)", () => {
    const [o, n] = pair("ui-bytes-changed");
    const fp = diffContracts([o], n, { waivers: [], now }).findings[0].fingerprint;
    const result = diffContracts([o], n, { waivers: [waiver("2026-12-31", fp)], now });
    assert.equal(result.breaking, true);
    assert.deepEqual(
      result.problems.map((p) => p.ruleId),
      ["WAIVER_NOT_ALLOWED"],
    );
  });

  it("rejects a waiver without reason, approver or expiry", async () => {
    const bad = await parseWaivers(
      JSON.stringify({ waivers: [{ fingerprint: `sha256:${"0".repeat(64)}`, reason: "because" }] }),
      "w.json",
    );
    assert.deepEqual([...new Set(bad.diagnostics.map((d) => d.ruleId))], ["WAIVER_FILE_INVALID"]);
    assert.equal((await parseWaivers("{", "w.json")).diagnostics[0].ruleId, "WAIVER_FILE_INVALID");
  });
});

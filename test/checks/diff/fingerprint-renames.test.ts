import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { docFromText } from "../../../checks/diff/baselines.js";
import { diffContracts, diffFailed } from "../../../checks/diff/contract-diff.js";
import { currentFingerprint, type Waiver } from "../../../checks/diff/waivers.js";
import renamesFile from "../../../checks/diff/fingerprint-renames.json" with { type: "json" };

const corpus = path.resolve("test/fixtures/diff-corpus/input-enum-narrowed");
const read = (f: string) => docFromText(readFileSync(path.join(corpus, f), "utf8"), f, [])!;
const now = new Date("2026-06-01T12:00:00Z");

// When the diff changes how it fingerprints a finding, checks/diff/fingerprint-renames.json maps
// the old fingerprint to the new one, so waivers written before keep matching.
describe("Contract-Diff fingerprint renames (L12.2)", () => {
  const [oldDoc, newDoc] = [read("old.json"), read("new.json")];
  const current = diffContracts([oldDoc], newDoc, { waivers: [], now }).findings[0].fingerprint;
  const waiver = (fingerprint: string): Waiver => ({
    fingerprint,
    ruleId: "INPUT_ENUM_NARROWED",
    reason: "no client ever sent skipped",
    approver: "release-lead",
    expires: "2026-12-31",
  });
  const before = `sha256:${"0".repeat(64)}`;
  const older = `sha256:${"1".repeat(64)}`;

  it("a waiver on a renamed fingerprint still accepts the finding", () => {
    const result = diffContracts([oldDoc], newDoc, {
      waivers: [waiver(before)],
      now,
      fingerprintRenames: { [before]: current },
    });
    assert.equal(result.breaking, false);
    assert.equal(result.findings[0].waiver?.approver, "release-lead");
    assert.deepEqual(result.problems, []);
    assert.equal(diffFailed(result), false);
  });

  it("without the rename the old waiver matches nothing and the break stands", () => {
    const result = diffContracts([oldDoc], newDoc, {
      waivers: [waiver(before)],
      now,
      fingerprintRenames: {},
    });
    assert.equal(result.breaking, true);
    assert.deepEqual(
      result.problems.map((p) => p.ruleId),
      ["WAIVER_UNUSED"],
    );
  });

  it("follows chains of renames and stops on a cycle", () => {
    assert.equal(currentFingerprint(older, { [older]: before, [before]: current }), current);
    assert.equal(currentFingerprint(older, { [older]: before, [before]: older }), older);
    assert.equal(currentFingerprint(current, {}), current);
  });

  it("reads checks/diff/fingerprint-renames.json by default, mapping fingerprints to fingerprints", () => {
    for (const [from, to] of Object.entries(renamesFile.renames as Record<string, string>)) {
      assert.match(from, /^sha256:[0-9a-f]{64}$/);
      assert.match(to, /^sha256:[0-9a-f]{64}$/);
      assert.equal(currentFingerprint(from), currentFingerprint(to));
    }
    assert.equal(currentFingerprint(current), current);
  });
});

import assert from "node:assert/strict";
import { diffContracts } from "../../../../checks/diff/contract-diff.js";
import type { Diagnostic } from "../../../../diagnostics/diagnostic.js";
import { type ContractDoc, parseContractDoc } from "../../../../contract-model/contract-doc.js";
import { listingCache } from "../../../../checks/diff/rules/listing-cache.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

const tool = {
  name: "echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};
const doc = (file: string, extra: object): ContractDoc => {
  const diagnostics: Diagnostic[] = [];
  const parsed = parseContractDoc({ tools: [tool], ...extra }, file, diagnostics);
  assert.deepEqual(diagnostics, []);
  return parsed!;
};
const diff = (a: object, b: object) =>
  diffContracts([doc("old.json", a)], doc("new.json", b), {
    waivers: [],
    now: new Date("2026-12-01T00:00:00Z"),
    versionCheck: false,
  });

describe("LISTING_CACHE_CHANGED: Contract-Diff reads the listing's cache hint (ttlMs, cacheScope)", () => {
  proveByCorpus(listingCache, [
    {
      rule: "LISTING_CACHE_CHANGED",
      severity: "note",
      fires: "listing-cache-longer",
      pointer: "/ttlMs",
      message:
        /^tools\/list cache hint changed: ttlMs 0 → 300000, cacheScope private → public; hosts pick up a changed listing only after the old hint expires$/,
      quiet: "listing-description-changed",
    },
  ]);

  it("a longer cache or another scope is a PATCH note naming both values", () => {
    const result = diff(
      { ttlMs: 0, cacheScope: "private" },
      { ttlMs: 300000, cacheScope: "public" },
    );
    assert.equal(result.requiredBump, "patch");
    assert.equal(result.breaking, false);
    const [finding] = result.findings.filter((f) => f.ruleId === "LISTING_CACHE_CHANGED");
    assert.equal(finding.severity, "note");
    assert.match(finding.message, /ttlMs 0 → 300000, cacheScope private → public/);
  });

  it("an equal hint, or a side without one (a snapshot against a live listing), reports nothing", () => {
    assert.equal(diff({ ttlMs: 60000 }, { ttlMs: 60000 }).findings.length, 0);
    assert.equal(diff({}, { ttlMs: 300000, cacheScope: "public" }).findings.length, 0);
    assert.equal(
      diff({ ttlMs: "soon" }, { ttlMs: 1 }).findings.length,
      0,
      "a malformed hint is none",
    );
  });
});

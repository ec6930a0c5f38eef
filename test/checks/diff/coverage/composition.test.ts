import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { bumps } from "../../../../diagnostics/rule.js";
import {
  buildCase,
  composable,
  coverageMap,
  type MapEntry,
} from "../../../../checks/diff/coverage/coverage-map.js";
import { diffListings } from "../../../../checks/diff/coverage/demonstrate.js";
import { type GoldenFile, goldenPaths } from "../../../../checks/diff/coverage/golden.js";

// Property: edits composed side by side in one contract (each at its own property, tool or
// descriptor field) are judged as the composition of their single verdicts: breaking when any is,
// and the largest bump. The single verdicts are the recorded ones (the golden check keeps them
// current), so each run diffs only the composed pair.
const golden = JSON.parse(readFileSync(goldenPaths.golden, "utf8")) as GoldenFile;
const entries = coverageMap().entries;
const single = (e: MapEntry) => golden.verdicts[`edit:${e.edit.id}`];

describe("Contract-Diff composed edits (L6, L12.2)", () => {
  it("judges 1000 random compositions of mapped edits as the composition of their verdicts", function () {
    this.timeout(120_000);
    assert.ok(
      entries.every((e) => single(e) !== undefined),
      "every edit has a recorded verdict",
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: entries.length - 1 }), {
          minLength: 2,
          maxLength: 4,
        }),
        (indexes) => {
          const picked = indexes.map((i) => entries[i]);
          fc.pre(composable(picked));
          const { before, after } = buildCase(picked);
          const { verdict } = diffListings(before, after);
          const singles = picked.map(single);
          const bump = singles.reduce(
            (b, v) => (bumps.indexOf(v.bump as never) > bumps.indexOf(b as never) ? v.bump : b),
            "none",
          );
          const ids = picked.map((e) => e.edit.id).join(" + ");
          assert.equal(
            verdict.breaking,
            singles.some((v) => v.breaking),
            `breaking: ${ids}`,
          );
          assert.equal(verdict.bump, bump, `bump: ${ids}`);
        },
      ),
      { numRuns: 1000, seed: 20261203, endOnFailure: true },
    );
  });
});

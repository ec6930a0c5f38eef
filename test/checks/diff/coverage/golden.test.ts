import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ambiguousRenames,
  changelogEntries,
  type GoldenFile,
  goldenDrift,
  goldenPaths,
  goldenUpdate,
  missingRenames,
  recordVerdicts,
} from "../../../../checks/diff/coverage/golden.js";

// Frozen verdicts (docs/contract-diff.md#frozen-verdicts): every recorded diff still gets the
// verdict, bump and finding fingerprints the golden file holds. The same check as
// `npm run diff:golden`, in `npm test`.
const root = process.cwd();
const golden = JSON.parse(readFileSync(goldenPaths.golden, "utf8")) as GoldenFile;

describe("Contract-Diff frozen verdicts (L6, L12.2)", () => {
  it("records at least 500 diffs: generated edits and the project's corpus", () => {
    const ids = Object.keys(golden.verdicts);
    assert.ok(ids.length >= 500, `${ids.length}`);
    assert.ok(ids.filter((i) => i.startsWith("edit:")).length >= 400);
    assert.ok(ids.filter((i) => i.startsWith("corpus:")).length >= 40);
    assert.deepEqual(ids, [...ids].sort(), "stable order");
  });

  it("gives every recorded diff its recorded verdict, bump and fingerprints", function () {
    this.timeout(60_000);
    const { verdicts, optional } = recordVerdicts(root);
    const drift = goldenDrift(golden, verdicts, optional);
    assert.deepEqual(
      { changed: drift.changed, added: drift.added, removed: drift.removed },
      { changed: [], added: [], removed: [] },
      "verdicts changed: add an entry to docs/diff-verdict-changes.md and run `npm run diff:golden -- --update`",
    );
    assert.ok(drift.checked >= 500, `${drift.checked}`);
  });

  describe("--update", () => {
    const finding = (fingerprint: string) => ({
      rule: "TOOL_REMOVED",
      pointer: "/tools/x",
      fingerprint,
    });
    const old: GoldenFile = {
      format: "skillpilot-diff-golden/1",
      changelogEntries: 1,
      verdicts: { "edit:a": { breaking: true, bump: "major", findings: [finding("sha256:old")] } },
    };
    const current = {
      "edit:a": { breaking: true, bump: "major", findings: [finding("sha256:new")] },
    };

    it("refuses a verdict change without a new changelog entry", () => {
      const out = goldenUpdate(old, current, new Set(), 1, { "sha256:old": "sha256:new" });
      assert.match("refused" in out ? out.refused : "", /has no new entry/);
    });

    it("refuses a changed fingerprint that the renames file does not map", () => {
      const out = goldenUpdate(old, current, new Set(), 2, {});
      assert.match("refused" in out ? out.refused : "", /without a rename/);
      assert.deepEqual(missingRenames(old, current, {}), [
        "edit:a: TOOL_REMOVED at /tools/x: sha256:old → sha256:new",
      ]);
    });

    it("does not ask to rename a fingerprint several findings shared, and names it", () => {
      const shared: GoldenFile = {
        ...old,
        verdicts: {
          "edit:a": old.verdicts["edit:a"],
          "edit:b": { breaking: true, bump: "major", findings: [finding("sha256:old")] },
        },
      };
      const apart = {
        ...current,
        "edit:b": { ...current["edit:a"], findings: [finding("sha256:other")] },
      };
      assert.deepEqual(missingRenames(shared, apart, {}), []);
      assert.deepEqual(ambiguousRenames(shared, apart), [
        "sha256:old (shared by 2 findings, now 2)",
      ]);
      assert.ok("text" in goldenUpdate(shared, apart, new Set(), 2, {}));
    });

    it("writes the new verdicts, in key order, once both are there", () => {
      const out = goldenUpdate(old, current, new Set(), 2, { "sha256:old": "sha256:new" });
      assert.ok("text" in out);
      const file = JSON.parse(out.text) as GoldenFile;
      assert.equal(file.changelogEntries, 2);
      assert.equal(file.verdicts["edit:a"].findings[0].fingerprint, "sha256:new");
    });

    it("keeps the shared corpus's verdicts where that corpus is absent", () => {
      const withReal: GoldenFile = {
        ...old,
        verdicts: { ...old.verdicts, "real:x": { breaking: false, bump: "none", findings: [] } },
      };
      const out = goldenUpdate(withReal, current, new Set(), 2, { "sha256:old": "sha256:new" });
      assert.ok("text" in out && "real:x" in (JSON.parse(out.text) as GoldenFile).verdicts);
      assert.equal(goldenDrift(withReal, current, new Set()).skipped, 1);
    });

    it("counts the changelog's entries, and the golden file answers every one", () => {
      assert.equal(changelogEntries("# x\n\n- one\n  more\n- two\n"), 2);
      assert.equal(
        changelogEntries(readFileSync(path.join(root, goldenPaths.changelog), "utf8")),
        golden.changelogEntries,
      );
    });
  });
});

describe("Contract-Diff frozen verdicts of published releases (L6)", () => {
  it("records consecutive published releases of each plugin line, in version order", () => {
    const root = mkdtempSync(path.join(tmpdir(), "skillpilot-golden-"));
    try {
      const line = path.join(root, "contracts/published/acme/coach");
      const corpus = path.join(process.cwd(), goldenPaths.corpus, "tool-added");
      for (const [version, side] of [
        ["1.9.0", "old.json"],
        ["1.10.0", "new.json"],
        ["1.10.1", "new.json"],
      ]) {
        mkdirSync(path.join(line, version), { recursive: true });
        copyFileSync(path.join(corpus, side), path.join(line, version, "contract.snapshot.json"));
      }
      const { verdicts } = recordVerdicts(root, false);
      const releases = Object.keys(verdicts).filter((k) => k.startsWith("release:"));
      assert.deepEqual(releases, [
        "release:acme/coach@1.9.0..1.10.0",
        "release:acme/coach@1.10.0..1.10.1",
      ]);
      assert.deepEqual(
        verdicts["release:acme/coach@1.9.0..1.10.0"].findings.map((f) => f.rule),
        ["TOOL_ADDED"],
      );
      assert.deepEqual(verdicts["release:acme/coach@1.10.0..1.10.1"].findings, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

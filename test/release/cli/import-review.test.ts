import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJson } from "../../../contract-model/canonical.js";
import {
  liveApprovedDefinitions,
  liveDefinitionHolders,
} from "../../../evolution/approved-definitions.js";
import { fixtureBundle, importFixtures, variantBundle } from "../support/import-bundles.js";
import { cli, useProjectCopies } from "../support/temp-project.js";
import { assertRefused, treeDigest } from "../support/tree-digest.js";

const rejectedDir = "contracts/review-history/openai/skillpilot-coach/1.0.0-rejected";
const candidateDir = "contracts/review-history/openai/skillpilot-coach/1.1.3-candidate";

/** The fixture release as version 1.0.0 under the beta package name, without its SHA256SUMS. */
const rejectedBundle = (root: string, name = "skillpilot-coach-v1-1.0.0.tgz", extra = "") =>
  variantBundle(root, name, (files) => {
    files.delete("SHA256SUMS");
    const manifest = JSON.parse(files.get("package/plugin.json")!.toString("utf8"));
    files.set(
      "package/plugin.json",
      Buffer.from(canonicalJson({ ...manifest, name: "skillpilot-coach-v1", version: "1.0.0" })),
    );
    if (extra) files.set("package/NOTES.txt", Buffer.from(extra));
  });

const review = (root: string, version: string, ...args: string[]) =>
  cli(root, "record-published", version, "--import", ...args);

interface ReviewEntry {
  version: string;
  status: string;
  packageName: string;
  reviewedAt: string;
  note?: string;
  dir: string;
  files: { name: string; path: string; sha256: string }[];
  tools: string[];
}
const readHistory = async (root: string) =>
  (
    JSON.parse(await readFile(path.join(root, "contracts/review-history.json"), "utf8")) as {
      entries: ReviewEntry[];
    }
  ).entries;

describe("bin: record-published --import --review keeps review history that is never a live definition (L4)", function () {
  this.timeout(120_000);
  const root = useProjectCopies();

  it(
    "L4: records a rejected 1.0.0 (bundle under the former package name) and a pre-submission " +
      "candidate 1.1.3 (tools list + manifest) byte for byte; neither is a release, a holder or " +
      "a diff baseline, and verify accepts them",
    async () => {
      const bundle = await rejectedBundle(root());
      const rejected = review(
        root(),
        "1.0.0",
        "--bundle",
        bundle,
        "--review",
        "rejected",
        "--reviewed-at",
        "2026-06-02",
        "--note",
        "the portal asked for narrower scopes",
      );
      assert.equal(rejected.code, 0, rejected.stderr);
      assert.match(
        rejected.stdout,
        /recorded 1\.0\.0 \(rejected, skillpilot-coach-v1-1\.0\.0\.tgz\)/,
      );

      const incoming = path.join(root(), "incoming");
      await mkdir(incoming, { recursive: true });
      const manifest = path.join(incoming, "plugin.json");
      await writeFile(manifest, canonicalJson({ name: "skillpilot-coach", version: "1.1.3" }));
      const tools = path.join(importFixtures, "submission/tools.json");
      const candidate = review(
        root(),
        "1.1.3",
        "--tools",
        tools,
        "--manifest",
        manifest,
        "--review",
        "candidate",
        "--reviewed-at",
        "2026-11-28",
      );
      assert.equal(candidate.code, 0, candidate.stderr);

      assert.ok(
        (
          await readFile(
            path.join(root(), rejectedDir, "imported/bundle/skillpilot-coach-v1-1.0.0.tgz"),
          )
        ).equals(await readFile(bundle)),
      );
      assert.ok(
        (await readFile(path.join(root(), candidateDir, "imported/tools/tools.json"))).equals(
          await readFile(tools),
        ),
      );
      const entries = await readHistory(root());
      assert.deepEqual(
        entries.map((e) => [e.version, e.status, e.packageName, e.reviewedAt, e.dir]),
        [
          ["1.0.0", "rejected", "skillpilot-coach-v1", "2026-06-02", rejectedDir],
          ["1.1.3", "candidate", "skillpilot-coach", "2026-11-28", candidateDir],
        ],
      );
      assert.equal(entries[0].note, "the portal asked for narrower scopes");
      assert.equal(entries[1].tools.length, 10);

      // No release, no holder: the release index, the live definitions and the UI store stay empty.
      assert.deepEqual(
        JSON.parse(
          await readFile(path.join(root(), "contracts/release-index.json"), "utf8").catch(
            () => '{"releases":[]}',
          ),
        ).releases,
        [],
      );
      assert.deepEqual((await liveDefinitionHolders(root())).holders, []);
      assert.equal((await liveApprovedDefinitions(root())).tools.size, 0);
      const verified = cli(root(), "verify");
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);

      // The real 1.1.2 import is unaffected: 1.0.0 is below it but no published release.
      const published = cli(
        root(),
        "record-published",
        "1.1.2",
        "--import",
        "--bundle",
        fixtureBundle,
        "--published-at",
        "2026-10-20",
      );
      assert.equal(published.code, 0, published.stderr);
      assert.deepEqual(
        (await liveDefinitionHolders(root())).holders.map((h) => h.version),
        ["1.1.2"],
      );
      const diff = cli(root(), "diff", "--format", "json");
      assert.deepEqual(
        (
          JSON.parse(diff.stdout) as { comparisons: { old: { packageVersion?: string } }[] }
        ).comparisons.map((c) => c.old.packageVersion),
        ["1.1.2"],
        "review history is no diff baseline",
      );
      assert.equal(cli(root(), "verify").code, 0);
    },
  );

  it("L4: the same bytes again are a no-op; other bytes for the same version and status are refused", async () => {
    const args = ["--review", "rejected", "--reviewed-at", "2026-06-02"];
    const bundle = await rejectedBundle(root());
    assert.equal(review(root(), "1.0.0", "--bundle", bundle, ...args).code, 0);
    const before = await treeDigest(root());
    const again = review(root(), "1.0.0", "--bundle", bundle, ...args);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already recorded with these bytes/);
    assert.equal(await treeDigest(root()), before);
    const other = await rejectedBundle(root(), "other-1.0.0.tgz", "resubmitted notes\n");
    await assertRefused(
      root(),
      () => review(root(), "1.0.0", "--bundle", other, ...args),
      1,
      /REVIEW_HISTORY_EXISTS.*1\.0\.0 \(rejected\) is already recorded/,
    );
  });

  it("L4: nothing is fabricated: no bytes, an undeclared package, another version or a wrong flag combination is refused, nothing written", async () => {
    const at = ["--reviewed-at", "2026-06-02"];
    await assertRefused(
      root(),
      () => review(root(), "1.0.0", "--review", "rejected", ...at),
      2,
      /--import needs --bundle FILE/,
    );
    const bundle = await rejectedBundle(root());
    await assertRefused(
      root(),
      () => review(root(), "1.0.0", "--bundle", bundle, "--review", "rejected"),
      2,
      /--review needs --reviewed-at/,
    );
    await assertRefused(
      root(),
      () =>
        review(
          root(),
          "1.0.0",
          "--bundle",
          bundle,
          "--review",
          "rejected",
          ...at,
          "--published-at",
          "2026-06-02",
        ),
      2,
      /no --published-at/,
    );
    await assertRefused(
      root(),
      () => review(root(), "1.0.0", "--bundle", bundle, "--review", "approved", ...at),
      2,
      /--review <status>.*rejected, candidate/,
    );
    await assertRefused(
      root(),
      () => cli(root(), "record-published", "1.0.0", "--review", "rejected", ...at),
      2,
      /--review needs --import/,
    );
    await assertRefused(
      root(),
      () => review(root(), "0.9.0", "--bundle", bundle, "--review", "rejected", ...at),
      1,
      /IMPORT_VERSION_MISMATCH.*carries version "1\.0\.0", not 0\.9\.0/,
    );
    const stranger = await variantBundle(root(), "stranger.tgz", (files) => {
      files.delete("SHA256SUMS");
      const manifest = JSON.parse(files.get("package/plugin.json")!.toString("utf8"));
      files.set(
        "package/plugin.json",
        Buffer.from(canonicalJson({ ...manifest, name: "quiz-helper" })),
      );
    });
    await assertRefused(
      root(),
      () => review(root(), "1.1.2", "--bundle", stranger, "--review", "rejected", ...at),
      1,
      /IMPORT_PACKAGE_NAME.*"quiz-helper", but this project is skillpilot-coach/,
    );
  });

  it("L4: verify reports a kept review file that changed and a folder no entry names", async () => {
    const bundle = await rejectedBundle(root());
    assert.equal(
      review(
        root(),
        "1.0.0",
        "--bundle",
        bundle,
        "--review",
        "rejected",
        "--reviewed-at",
        "2026-06-02",
      ).code,
      0,
    );
    const kept = path.join(root(), rejectedDir, "imported/bundle/skillpilot-coach-v1-1.0.0.tgz");
    await writeFile(kept, Buffer.concat([await readFile(kept), Buffer.from([0])]));
    const stray = path.join(
      root(),
      "contracts/review-history/openai/skillpilot-coach/1.1.0-candidate",
    );
    await mkdir(stray, { recursive: true });
    await writeFile(path.join(stray, "SHA256SUMS"), "");
    const run = cli(root(), "verify");
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /REVIEW_HISTORY_MISMATCH.*1\.0\.0-rejected.*does not match its sha256/,
    );
    assert.match(
      run.stderr,
      /REVIEW_HISTORY_MISMATCH.*1\.1\.0-candidate is not named by any entry/,
    );
  });
});

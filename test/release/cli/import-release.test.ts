import assert from "node:assert/strict";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJson, sha256Hex } from "../../../contract-model/canonical.js";
import { renderSha256Manifest } from "../../../contract-model/file-tree/sha256-manifest.js";
import { publishedDir } from "../../../contract-model/project/project-layout.js";
import { repoRoot } from "../../support/temp-project.js";
import { cli, editJson, publishRelease, useProjectCopies } from "../support/temp-project.js";
import { assertRefused, treeDigest } from "../support/tree-digest.js";
import { fixtureBundle, importFixtures, variantBundle } from "../support/import-bundles.js";
import { freeze } from "../../../release/freeze/freeze.js";
import { prepare } from "../../../release/prepare/prepare.js";

const fixtures = importFixtures;
const bundle = fixtureBundle;
const bundleSha = "b0a89595c951191f0443b0b551a8ae8c0637f4c1b6099481b50df6364a3b841b";
const pages = [
  "ui://skillpilot/coach/1/sha256-cf20a8d34028a1a35d0e7668e924e34221a4f299493befe1f3319331afc70ad2/index.html",
  "ui://skillpilot/coach/1/sha256-54aacff9b2c3d566913a6c3d545f69442d7da7f66d6b7346d7c35e62c2a0363e/index.html",
];
const published = publishedDir("skillpilot-coach", "1.1.2");
const at = ["--published-at", "2026-10-20"];

const importBundle = (root: string, file = bundle, ...extra: string[]) =>
  cli(root, "record-published", "1.1.2", "--import", "--bundle", file, ...at, ...extra);

interface Entry {
  version: string;
  imported?: { source: string; files: { name: string; path: string; sha256: string }[] };
  archives?: unknown;
  ui: Record<string, string>;
}
const readIndex = async (root: string) =>
  JSON.parse(await readFile(path.join(root, "contracts/release-index.json"), "utf8")) as {
    releases: Entry[];
  };

describe("bin: record-published --import adopts a release published before the toolchain (L4, L10, L12.2)", function () {
  this.timeout(180_000);
  const root = useProjectCopies();

  it(
    "L4, L10: records the 1.1.2 install bundle append-only — original bytes kept, a snapshot " +
      "with its package version, an imported index entry, its UI retained — and verify accepts it",
    async () => {
      const run = importBundle(root(), bundle, "--sha256", bundleSha);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /imported 1\.1\.2 \(skillpilot-coach-1\.1\.2\.tgz\)/);
      const dir = path.join(root(), published);
      assert.ok(
        (await readFile(path.join(dir, "imported/bundle/skillpilot-coach-1.1.2.tgz"))).equals(
          await readFile(bundle),
        ),
        "the bundle is kept byte for byte",
      );
      const sums = await readFile(path.join(dir, "SHA256SUMS"), "utf8");
      assert.deepEqual(
        sums
          .trim()
          .split("\n")
          .map((l) => l.split("  ")[1]),
        ["contract.snapshot.json", "imported/bundle/skillpilot-coach-1.1.2.tgz"],
      );
      const snapshot = JSON.parse(await readFile(path.join(dir, "contract.snapshot.json"), "utf8"));
      assert.equal(snapshot.plugin.packageVersion, "1.1.2");
      assert.equal(snapshot.envelopes, undefined, "an imported tools list carries no envelopes");
      assert.equal(snapshot.tools.length, 10);
      const [entry] = (await readIndex(root())).releases;
      assert.equal(entry.version, "1.1.2");
      assert.equal(entry.archives, undefined);
      assert.equal(entry.imported?.source, "bundle");
      assert.deepEqual(entry.imported?.files, [
        {
          name: "skillpilot-coach-1.1.2.tgz",
          path: "imported/bundle/skillpilot-coach-1.1.2.tgz",
          sha256: bundleSha,
        },
      ]);
      assert.deepEqual(Object.values(entry.ui).sort(), [...pages].sort());
      for (const uri of pages) {
        const html = await readFile(path.join(root(), "contracts/ui", uri.slice("ui://".length)));
        assert.equal(sha256Hex(html), /sha256-([0-9a-f]{64})/.exec(uri)![1]);
      }
      const activations = await readFile(
        path.join(root(), "contracts/ui-activations.json"),
        "utf8",
      );
      for (const uri of pages) assert.ok(activations.includes(uri), `${uri} is recorded`);
      const verified = cli(root(), "verify");
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
      assert.match(
        cli(root(), "contract", "show").stdout,
        /^Live approved definitions \(1\.1\.2 \(imported\)\):$/m,
      );
    },
  );

  it(
    "L12.2: after the import the gates' diff judges the contract against 1.1.2, declared bump " +
      "included, and reports no envelope the imported release never carried as added",
    async () => {
      assert.equal(importBundle(root()).code, 0);
      const run = cli(root(), "diff", "--format", "json");
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const report = JSON.parse(run.stdout) as {
        comparisons: { old: { file: string; packageVersion?: string } }[];
        findings: { ruleId: string }[];
      };
      assert.deepEqual(
        report.comparisons.map((c) => [c.old.file, c.old.packageVersion]),
        [[`${published}/contract.snapshot.json`, "1.1.2"]],
      );
      assert.ok(!report.findings.some((d) => d.ruleId.startsWith("ENVELOPE_")));
      assert.match(
        cli(root(), "diff").stdout,
        /1\.1\.2 → 1\.1\.3, declared patch/,
        "the declared bump is read from the imported snapshot",
      );
    },
  );

  it("L4: imports a submitted tools.json + package manifest when its UI pages are retained", async () => {
    const tools = path.join(fixtures, "submission/tools.json");
    const manifest = path.join(fixtures, "submission/plugin.json");
    const args = [
      "record-published",
      "1.1.2",
      "--import",
      "--tools",
      tools,
      "--manifest",
      manifest,
      ...at,
    ];
    await assertRefused(
      root(),
      () => cli(root(), ...args),
      1,
      /IMPORT_UI_MISSING.*sha256-54aacff9/,
    );
    for (const uri of pages)
      await cp(
        path.join(repoRoot, "contracts/ui", uri.slice("ui://".length)),
        path.join(root(), "contracts/ui", uri.slice("ui://".length)),
      );
    const run = cli(root(), ...args);
    assert.equal(run.code, 0, run.stderr);
    const [entry] = (await readIndex(root())).releases;
    assert.equal(entry.imported?.source, "tools-manifest");
    assert.deepEqual(
      entry.imported?.files.map((f) => f.path),
      ["imported/manifest/plugin.json", "imported/tools/tools.json"],
    );
    assert.equal(cli(root(), "verify").code, 0);
  });

  it("L4: refuses a version that is not above every recorded release, writing nothing", async () => {
    assert.equal(importBundle(root()).code, 0);
    await assertRefused(
      root(),
      () => importBundle(root()),
      1,
      /VERSION_NOT_NEWER.*1\.1\.2 is not above already published 1\.1\.2/,
    );
  });

  it("L4: refuses an import older than a release recorded by record-published", async () => {
    await publishRelease(root(), "1.1.3");
    await assertRefused(root(), () => importBundle(root()), 1, /VERSION_NOT_NEWER.*1\.1\.3/);
  });

  it("L2, L1: refuses another version or package name than the manifest's and the project's", async () => {
    await assertRefused(
      root(),
      () => cli(root(), "record-published", "1.1.1", "--import", "--bundle", bundle, ...at),
      1,
      /IMPORT_VERSION_MISMATCH.*carries version "1\.1\.2", not 1\.1\.1/,
    );
    const manifest = path.join(root(), "incoming/plugin.json");
    await mkdir(path.dirname(manifest), { recursive: true });
    await writeFile(manifest, canonicalJson({ name: "skillpilot-tutor", version: "1.1.2" }));
    await assertRefused(
      root(),
      () =>
        cli(
          root(),
          "record-published",
          "1.1.2",
          "--import",
          "--manifest",
          manifest,
          "--tools",
          path.join(fixtures, "submission/tools.json"),
          ...at,
        ),
      1,
      /IMPORT_PACKAGE_NAME.*"skillpilot-tutor", but this project is skillpilot-coach \(former package names declared under formerIdentities in schemas\/plugin\.json: skillpilot-coach-v1\)/,
    );
  });

  it(
    "L1, L4: adopts 1.1.2 published as the Git beta package skillpilot-coach-v1 (a former " +
      "identity declared in schemas/plugin.json) as history of the permanent plugin, bytes kept " +
      "as supplied; without the declaration the same bytes are refused, nothing written",
    async () => {
      const beta = await variantBundle(root(), "skillpilot-coach-v1-1.1.2.tgz", (files) => {
        const manifest = JSON.parse(files.get("package/plugin.json")!.toString("utf8"));
        files.set(
          "package/plugin.json",
          Buffer.from(canonicalJson({ ...manifest, name: "skillpilot-coach-v1" })),
        );
        files.set(
          "SHA256SUMS",
          Buffer.from(
            renderSha256Manifest(
              [...files]
                .filter(([p]) => p !== "SHA256SUMS")
                .map(([p, data]) => ({ path: p, sha256: sha256Hex(data) })),
            ),
          ),
        );
      });
      const supplied = await readFile(beta);

      const pluginFile = path.join(root(), "schemas/plugin.json");
      const declared = await readFile(pluginFile);
      await editJson(root(), "schemas/plugin.json", (doc) => {
        delete doc.formerIdentities;
      });
      await assertRefused(
        root(),
        () => importBundle(root(), beta),
        1,
        /IMPORT_PACKAGE_NAME.*"skillpilot-coach-v1", but this project is skillpilot-coach \(former package names declared under formerIdentities in schemas\/plugin\.json: none\)/,
      );
      await writeFile(pluginFile, declared);

      const run = importBundle(root(), beta);
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stdout,
        /as history of skillpilot-coach \(published as skillpilot-coach-v1\)/,
      );
      const kept = path.join(root(), published, "imported/bundle/skillpilot-coach-v1-1.1.2.tgz");
      assert.ok((await readFile(kept)).equals(supplied), "kept byte for byte");
      const [entry] = (await readIndex(root())).releases as (Entry & {
        packageName: string;
        imported: { formerPackageName?: string };
      })[];
      assert.equal(entry.packageName, "skillpilot-coach", "recorded under the permanent plugin");
      assert.equal(entry.imported.formerPackageName, "skillpilot-coach-v1");
      const verified = cli(root(), "verify");
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
      assert.match(
        cli(root(), "contract", "show").stdout,
        /^Live approved definitions \(1\.1\.2 \(imported\)\):$/m,
      );
    },
  );

  it("L4: refuses bytes that disagree with a hash they name (--sha256, SHA256SUMS, a ui:// URI)", async () => {
    await assertRefused(
      root(),
      () => importBundle(root(), bundle, "--sha256", "0".repeat(64)),
      1,
      /IMPORT_HASH_MISMATCH.*not the 0{64} given with --sha256/,
    );
    const tampered = await variantBundle(root(), "tampered.tgz", (files) => {
      files.set("package/tools.json", Buffer.from("[]\n"));
    });
    await assertRefused(
      root(),
      () => importBundle(root(), tampered),
      1,
      /IMPORT_HASH_MISMATCH.*package\/tools\.json does not match its sha256 in SHA256SUMS/,
    );
    const page = await variantBundle(root(), "page.tgz", (files) => {
      files.delete("SHA256SUMS");
      files.set("package/ui/memory-practice/index.html", Buffer.from("<!doctype html>changed\n"));
    });
    await assertRefused(
      root(),
      () => importBundle(root(), page),
      1,
      /IMPORT_HASH_MISMATCH.*memory-practice\/index\.html.*not to the hash its URI names/,
    );
  });

  it("L4: malformed or unreadable input is a diagnostic with exit 2, nothing written", async () => {
    const incoming = path.join(root(), "incoming");
    await mkdir(incoming, { recursive: true });
    const notArchive = path.join(incoming, "notes.tgz");
    await writeFile(notArchive, "release notes, not a bundle\n");
    await assertRefused(
      root(),
      () => importBundle(root(), notArchive),
      2,
      /IMPORT_INPUT_INVALID.*notes\.tgz is not a readable bundle/,
    );
    const truncated = path.join(incoming, "truncated.tgz");
    const bytes = await readFile(bundle);
    await writeFile(truncated, bytes.subarray(0, bytes.length - 100));
    await assertRefused(
      root(),
      () => importBundle(root(), truncated),
      2,
      /IMPORT_INPUT_INVALID.*truncated\.tgz is not a readable bundle/,
    );
    await assertRefused(
      root(),
      () => importBundle(root(), path.join(incoming, "missing.tgz")),
      2,
      /IMPORT_INPUT_INVALID.*missing\.tgz cannot be read/,
    );
    const noManifest = await variantBundle(root(), "no-manifest.tgz", (files) => {
      files.delete("SHA256SUMS");
      files.delete("package/plugin.json");
    });
    await assertRefused(
      root(),
      () => importBundle(root(), noManifest),
      2,
      /IMPORT_INPUT_INVALID.*holds no package manifest/,
    );
    const badTools = await variantBundle(root(), "bad-tools.tgz", (files) => {
      files.delete("SHA256SUMS");
      files.set("package/tools.json", Buffer.from('{"tools":[{"name":"x"}]}'));
    });
    await assertRefused(
      root(),
      () => importBundle(root(), badTools),
      2,
      /IMPORT_INPUT_INVALID.*tool #0 is not a tool descriptor \(no inputSchema object\)/,
    );
    const manifest = path.join(incoming, "plugin.json");
    await writeFile(manifest, "{ not json");
    const before = await treeDigest(root());
    const json = cli(
      root(),
      "record-published",
      "1.1.2",
      "--import",
      "--manifest",
      manifest,
      "--tools",
      path.join(fixtures, "submission/tools.json"),
      ...at,
      "--format",
      "json",
    );
    assert.equal(json.code, 2);
    const report = JSON.parse(json.stdout) as {
      diagnostics: { ruleId: string; message: string }[];
    };
    assert.deepEqual(
      report.diagnostics.map((d) => d.ruleId),
      ["IMPORT_INPUT_INVALID"],
    );
    assert.match(report.diagnostics[0].message, /plugin\.json is not valid JSON/);
    assert.equal(await treeDigest(root()), before);
    const usage = [
      ["--import"],
      ["--bundle", bundle],
      ["--import", "--bundle", bundle, "--tools", manifest, "--manifest", manifest],
      ["--import", "--tools", manifest],
    ];
    for (const extra of usage)
      await assertRefused(
        root(),
        () => cli(root(), "record-published", "1.1.2", ...extra, ...at),
        2,
        /skillpilot: /,
      );
    await assertRefused(
      root(),
      () => cli(root(), "record-published", "1.1.2", "--import", "--bundle", bundle),
      2,
      /--published-at/,
    );
  });

  it("L3: refuses while a draft is frozen, since publishing the line would change the frozen contract", async () => {
    assert.equal(
      (await prepare(root())).diagnostics.filter((d) => d.severity === "error").length,
      0,
    );
    assert.equal((await freeze(root(), "1.1.3")).outcome, "done");
    await assertRefused(
      root(),
      () => importBundle(root()),
      1,
      /IMPORT_WHILE_FROZEN.*frozen for review in 1\.1\.3/,
    );
  });

  it("L4: verify rejects an imported release whose kept bytes or contract were changed", async () => {
    assert.equal(importBundle(root()).code, 0);
    const dir = path.join(root(), published);
    const kept = path.join(dir, "imported/bundle/skillpilot-coach-1.1.2.tgz");
    const original = await readFile(kept);
    await writeFile(kept, Buffer.concat([original, Buffer.from([0])]));
    const tampered = cli(root(), "verify");
    assert.equal(tampered.code, 1);
    assert.match(
      tampered.stderr,
      /PUBLISHED_TAMPERED.*skillpilot-coach-1\.1\.2\.tgz does not match/,
    );
    assert.match(tampered.stderr, /IMPORTED_RELEASE_MISMATCH/);
    await writeFile(kept, original);

    // A careful forger edits the contract and rewrites every hash that names it.
    const snapshotFile = path.join(dir, "contract.snapshot.json");
    const forged = JSON.parse(await readFile(snapshotFile, "utf8"));
    forged.tools.pop();
    const forgedBytes = Buffer.from(canonicalJson(forged));
    await writeFile(snapshotFile, forgedBytes);
    const sums = renderSha256Manifest([
      { path: "contract.snapshot.json", sha256: sha256Hex(forgedBytes) },
      { path: "imported/bundle/skillpilot-coach-1.1.2.tgz", sha256: sha256Hex(original) },
    ]);
    await writeFile(path.join(dir, "SHA256SUMS"), sums);
    await editJson(root(), "contracts/release-index.json", (index) => {
      const [entry] = index.releases as Record<string, unknown>[];
      entry.snapshotSha256 = sha256Hex(forgedBytes);
      entry.contentSha256 = sha256Hex(sums);
    });
    const forgedRun = cli(root(), "verify");
    assert.equal(forgedRun.code, 1);
    assert.match(
      forgedRun.stderr,
      /IMPORTED_RELEASE_MISMATCH.*contract\.snapshot\.json is not the contract read from the kept original bytes/,
    );
  });
});

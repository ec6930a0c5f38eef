import assert from "node:assert/strict";
import { appendFile, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../../../contract-model/file-tree/sha256-manifest.js";
import { projectLayout, publishedDir } from "../../../contract-model/project/project-layout.js";
import { verifyRelease } from "../../../release/verify/verify.js";
import {
  commitAll,
  editJson,
  publishRelease,
  regenerate,
  ruleIds,
  useProjectCopies,
} from "../support/temp-project.js";
import { git } from "../../support/temp-project.js";

const PUBLISHED = publishedDir("skillpilot-coach", "1.1.3");
const since = { since: "git:HEAD" };

const messages = (diagnostics: { ruleId: string; message: string }[], id: string) =>
  diagnostics.filter((d) => d.ruleId === id).map((d) => d.message);

describe("verify: release records are append-only against the git baseline (L4)", function () {
  this.timeout(60000);
  const project = useProjectCopies();
  let root: string;
  beforeEach(async () => {
    root = project();
    await publishRelease(root, "1.1.3");
    commitAll(root, "record 1.1.3");
  });

  it("L4: the committed records verify; a new release is appended and verifies too", async () => {
    assert.deepEqual(ruleIds(await verifyRelease(root, since)), []);
    await editJson(root, projectLayout.pluginFile, (doc) => (doc.packageVersion = "1.1.4"));
    await regenerate(root);
    await publishRelease(root, "1.1.4");
    assert.deepEqual(ruleIds(await verifyRelease(root, since)), []);
    // Key order is not content: an index rewritten with its keys reordered is the same record.
    const text = await readFile(path.join(root, projectLayout.releaseIndex), "utf8");
    const doc = JSON.parse(text) as { releases: Record<string, unknown>[] };
    await writeFile(
      path.join(root, projectLayout.releaseIndex),
      JSON.stringify({
        releases: doc.releases.map((e) => Object.fromEntries(Object.entries(e).reverse())),
        indexFormat: (doc as unknown as { indexFormat: string }).indexFormat,
      }),
    );
    assert.deepEqual(ruleIds(await verifyRelease(root, since)), []);
  });

  it("L4: `rm -rf contracts/published` fails with RELEASE_RECORD_REWRITTEN per file", async () => {
    await rm(path.join(root, projectLayout.publishedDir), { recursive: true });
    const found = await verifyRelease(root, since);
    assert.ok(ruleIds(found).includes("RELEASE_RECORD_REWRITTEN"), ruleIds(found).join());
    const removed = messages(found, "RELEASE_RECORD_REWRITTEN");
    assert.ok(
      removed.some((m) =>
        m.startsWith(`${PUBLISHED}/SHA256SUMS was published (committed at git:HEAD)`),
      ),
      removed.join("\n"),
    );
  });

  it(
    "L4: emptying the index, with or without the folders, fails (releases: [] no longer " +
      "holds 1.1.3)",
    async () => {
      await editJson(root, projectLayout.releaseIndex, (doc) => (doc.releases = []));
      const found = await verifyRelease(root, since);
      assert.ok(ruleIds(found).includes("RELEASE_RECORD_REWRITTEN"), ruleIds(found).join());
      assert.match(
        messages(found, "RELEASE_RECORD_REWRITTEN")[0],
        /contracts\/release-index\.json no longer holds the entry of 1\.1\.3 recorded at git:/,
      );
      await rm(path.join(root, projectLayout.publishedDir), { recursive: true });
      const both = await verifyRelease(root, since);
      assert.deepEqual(ruleIds(both), ["LINE_PUBLICATION_UNRECORDED", "RELEASE_RECORD_REWRITTEN"]);
    },
  );

  it("L4: editing an entry's publishedAt or line names the changed field", async () => {
    await editJson(root, projectLayout.releaseIndex, (doc) => {
      (doc.releases as { publishedAt: string }[])[0].publishedAt = "2026-12-01";
    });
    const dated = await verifyRelease(root, since);
    assert.deepEqual(ruleIds(dated), ["RELEASE_RECORD_REWRITTEN"]);
    assert.match(dated[0].message, /entry of 1\.1\.3 differs .*\(changed: publishedAt\)/);
    assert.equal(dated[0].location.pointer, "/releases/0");
    git(root, "checkout", "--", projectLayout.releaseIndex);
    await editJson(root, projectLayout.releaseIndex, (doc) => {
      (doc.releases as { line: { policyRevision: number } }[])[0].line.policyRevision = 1;
    });
    const line = await verifyRelease(root, since);
    assert.deepEqual(ruleIds(line), ["RELEASE_RECORD_REWRITTEN"]);
    assert.match(line[0].message, /\(changed: line\)/);
  });

  it(
    "L4 (adversarial): a published file rewritten together with its SHA256SUMS and the index " +
      "hash still differs from the baseline",
    async () => {
      const dir = path.join(root, PUBLISHED);
      const tools = path.join(dir, "package/tools.json");
      await appendFile(tools, " ");
      const sums = path.join(dir, "SHA256SUMS");
      const rehashed = (await readFile(sums, "utf8")).replace(
        /^[0-9a-f]{64}( {2}package\/tools\.json)$/m,
        `${sha256Hex(await readFile(tools))}$1`,
      );
      await writeFile(sums, rehashed);
      await editJson(root, projectLayout.releaseIndex, (doc) => {
        (doc.releases as { contentSha256: string }[])[0].contentSha256 = sha256Hex(rehashed);
      });
      const found = messages(await verifyRelease(root, since), "RELEASE_RECORD_REWRITTEN");
      const committed =
        "committed at git:HEAD; a published folder is immutable: restore it from git";
      assert.ok(
        found.includes(`${PUBLISHED}/package/tools.json differs from its bytes ${committed}`),
      );
      assert.ok(found.includes(`${PUBLISHED}/SHA256SUMS differs from its bytes ${committed}`));
      assert.ok(
        found.some((m) => /entry of 1\.1\.3 differs .*\(changed: contentSha256\)/.test(m)),
        found.join("\n"),
      );
    },
  );

  it(
    "L4 (adversarial): a deletion committed before an unrelated commit is still found from the " +
      "index's git history; a rewrite that was restored is not",
    async () => {
      await editJson(root, projectLayout.releaseIndex, (doc) => {
        (doc.releases as { publishedAt: string }[])[0].publishedAt = "2026-12-01";
      });
      commitAll(root, "tamper");
      git(root, "checkout", "HEAD~1", "--", projectLayout.releaseIndex);
      commitAll(root, "restore");
      assert.deepEqual(ruleIds(await verifyRelease(root, since)), []);
      await editJson(root, projectLayout.releaseIndex, (doc) => (doc.releases = []));
      await rm(path.join(root, projectLayout.publishedDir), { recursive: true });
      commitAll(root, "drop the records");
      commitAll(root, "unrelated");
      const found = await verifyRelease(root, since);
      assert.ok(ruleIds(found).includes("RELEASE_RECORD_REWRITTEN"), ruleIds(found).join());
      assert.match(
        messages(found, "RELEASE_RECORD_REWRITTEN").join("\n"),
        /no longer holds the entry of 1\.1\.3 recorded at git:[0-9a-f]{12}/,
      );
    },
  );

  it(
    "L4: an unreadable baseline warns (LINE_BASELINE_MISSING) and the records are judged " +
      "by the index's history and the published-folder checks alone",
    async () => {
      await rm(path.join(root, projectLayout.publishedDir), { recursive: true });
      const found = await verifyRelease(root, { since: "git:no-such-ref" });
      assert.deepEqual(ruleIds(found, "warning"), ["LINE_BASELINE_MISSING"]);
      assert.deepEqual(ruleIds(found), ["PUBLISHED_MISSING"]);
    },
  );
});

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { publishedDir } from "../../../contract-model/project/project-layout.js";
import { copyProject, makeTemplateProject, removeProject } from "../support/temp-project.js";
import { treeDigest } from "../support/tree-digest.js";

const cli = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../bin/skillpilot.js",
);

/** Run the real CLI against a project copy. */
function skillpilot(root: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [cli, "-C", root, ...args], { encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("bin: release commands (L3, L4, L10, L12)", function () {
  this.timeout(120000);
  let template: string;
  let root: string;
  before(async () => {
    template = await makeTemplateProject();
    root = await copyProject(template);
  });
  after(async () => {
    await removeProject(root);
    await removeProject(template);
  });

  it(
    "L3, L4, L12: prepare → freeze → record-published → verify exit 0; a " +
      "tampered published file makes verify exit 1 with a GitHub annotation",
    async () => {
      const prepared = skillpilot(root, "prepare");
      assert.equal(prepared.code, 0, prepared.stderr);
      assert.match(
        prepared.stdout,
        /wrote contracts\/drafts\/openai\/skillpilot-coach\/1\.1\.3-SNAPSHOT/,
      );
      const frozen = skillpilot(root, "freeze", "1.1.3");
      assert.equal(frozen.code, 0, frozen.stderr);
      assert.match(frozen.stderr, /warning {2}LIVE_EVIDENCE_PENDING .*verify --live/);
      const before = await treeDigest(root);
      const refused = skillpilot(root, "record-published", "1.1.3", "--published-at", "2026-11-30");
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(
        refused.stderr,
        /error {2}LIVE_EVIDENCE_MISSING .*verify --live URL.*--without-live-evidence <reason>/,
      );
      assert.equal(await treeDigest(root), before, "a refusal writes nothing");
      const blank = skillpilot(root, "record-published", "1.1.3", "--without-live-evidence", " ");
      assert.equal(blank.code, 2, "an empty reason is a usage error");
      assert.equal(await treeDigest(root), before);
      const recorded = skillpilot(
        root,
        "record-published",
        "1.1.3",
        "--published-at",
        "2026-11-30",
        "--without-live-evidence",
        "staging server down for maintenance",
      );
      assert.equal(recorded.code, 0, recorded.stderr);
      assert.match(
        recorded.stderr,
        /warning {2}LIVE_EVIDENCE_WAIVED .*recorded without pre-submission live evidence: staging server down for maintenance/,
      );
      const index = JSON.parse(
        await readFile(path.join(root, "contracts/release-index.json"), "utf8"),
      ) as { releases: { liveEvidence?: unknown }[] };
      assert.deepEqual(index.releases[0].liveEvidence, {
        kind: "waived",
        reason: "staging server down for maintenance",
      });
      assert.equal(skillpilot(root, "verify").code, 0);
      await appendFile(
        path.join(root, publishedDir("skillpilot-coach", "1.1.3"), "package/plugin.json"),
        "\n",
      );
      const failed = skillpilot(root, "verify", "--format", "github");
      assert.equal(failed.code, 1);
      assert.match(
        failed.stdout,
        /^::error file=contracts\/published\/openai\/skillpilot-coach\/1\.1\.3.*PUBLISHED_TAMPERED/m,
      );
    },
  );

  it("L4: refusals exit 1 with the rule id; usage errors exit 2", () => {
    const refused = skillpilot(root, "freeze", "9.9.9");
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /DRAFT_MISSING/);
    assert.equal(skillpilot(root, "unfreeze", "1.1.3").code, 2, "--reason is required");
    const blank = skillpilot(root, "unfreeze", "1.1.3", "--reason", "  ");
    assert.equal(blank.code, 2, "an empty --reason is a usage error");
    assert.match(blank.stderr, /--reason <text>.*the reason must not be empty/);
    assert.doesNotMatch(blank.stderr + blank.stdout, /NOT_FROZEN/);
    assert.equal(
      skillpilot(root, "record-published", "1.1.3", "--published-at", "yesterday").code,
      2,
    );
  });

  it("L10: ui build --json prints each page's content-addressed URI", () => {
    const built = skillpilot(root, "ui", "build", "--json");
    assert.equal(built.code, 0, built.stderr);
    const uris = JSON.parse(built.stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(uris).sort(), ["goal-visualization", "memory-practice"]);
    for (const uri of Object.values(uris))
      assert.match(uri, /^ui:\/\/skillpilot\/coach\/1\/sha256-[0-9a-f]{64}\/index\.html$/);
  });
});

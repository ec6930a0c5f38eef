import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "../../../support/temp-project.js";
import type { Wire } from "../../../support/wire.js";
import { directoryFindingsOf } from "../support/directory-listing.js";

const snapshot = async (): Promise<Wire> =>
  JSON.parse(await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8"));

describe("DIRECTORY_PRIVACY_POLICY_MISSING (checks/lint/directory/privacy-policy.rule.ts)", () => {
  it("fires on a snapshot whose plugin names no privacy policy", async () => {
    const doc = await snapshot();
    delete doc.plugin.directory;
    for (const profile of ["openai-directory", "claude-directory"] as const)
      assert.deepEqual(directoryFindingsOf("DIRECTORY_PRIVACY_POLICY_MISSING", doc, profile), [
        [
          "error",
          "/plugin",
          "the plugin names no https privacy policy URL; set directory.privacyPolicyUrl in schemas/plugin.json",
        ],
      ]);
  });

  it("fires on a plain-http policy URL", async () => {
    const doc = await snapshot();
    doc.plugin.directory.privacyPolicyUrl = "http://skillpilot.com/privacy";
    assert.equal(
      directoryFindingsOf("DIRECTORY_PRIVACY_POLICY_MISSING", doc, "openai-directory").length,
      1,
    );
  });

  it("stays quiet on the snapshot as generated (an https policy URL)", async () => {
    const doc = await snapshot();
    assert.match(doc.plugin.directory.privacyPolicyUrl, /^https:\/\//);
    assert.deepEqual(
      directoryFindingsOf("DIRECTORY_PRIVACY_POLICY_MISSING", doc, "claude-directory"),
      [],
    );
  });
});

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { docFromText } from "../../../checks/diff/baselines.js";
import { diffContracts } from "../../../checks/diff/contract-diff.js";
import { sha256Hex } from "../../../contract-model/canonical.js";
import type { Wire } from "../../support/wire.js";

// The project's own snapshot, edited the way a release would change it.
const snapshotText = readFileSync("generated/contract.snapshot.json", "utf8");
const project = () => JSON.parse(snapshotText) as Wire;
const diff = (before: Wire, after: Wire) =>
  diffContracts(
    [docFromText(JSON.stringify(before), "old.json", [])!],
    docFromText(JSON.stringify(after), "new.json", [])!,
    { waivers: [], now: new Date("2026-12-01T00:00:00Z") },
  );
const withVersion = (doc: Wire, version: string) => {
  doc.plugin.packageVersion = version;
  return doc;
};
const ids = (result: ReturnType<typeof diff>) => result.findings.map((f) => f.ruleId);

describe("Contract-Diff on skills and the directory listing (L6, L7)", () => {
  it("records every skill's files with their content hashes in the snapshot", () => {
    const skills = project().skills;
    assert.deepEqual(Object.keys(skills), ["skillpilot-coach"]);
    assert.equal(
      skills["skillpilot-coach"].files["SKILL.md"],
      `sha256:${sha256Hex(readFileSync("skills/skillpilot-coach/SKILL.md"))}`,
    );
  });

  it("a new skill is MINOR", () => {
    const after = withVersion(project(), "1.2.0");
    after.skills["skillpilot-practice"] = { files: { "SKILL.md": `sha256:${"1".repeat(64)}` } };
    const result = diff(project(), after);
    assert.deepEqual(ids(result), ["SKILL_ADDED"]);
    assert.equal(result.requiredBump, "minor");
    assert.deepEqual(result.problems, []);
  });

  it("an edited SKILL.md is PATCH, and naming the file", () => {
    const after = withVersion(project(), "1.1.4");
    after.skills["skillpilot-coach"].files["SKILL.md"] = `sha256:${"2".repeat(64)}`;
    const result = diff(project(), after);
    assert.deepEqual(ids(result), ["SKILL_CHANGED"]);
    assert.match(result.findings[0]!.message, /skillpilot-coach changed: SKILL\.md edited/);
    assert.equal(result.requiredBump, "patch");
    assert.equal(result.breaking, false);
  });

  it("a removed skill is MAJOR, with the snapshot itself as the witness", () => {
    const after = withVersion(project(), "2.0.0");
    after.skills = {};
    const result = diff(project(), after);
    assert.deepEqual(ids(result), ["SKILL_REMOVED"]);
    assert.equal(result.requiredBump, "major");
    assert.equal(result.breaking, true);
    assert.equal(result.findings[0]!.witness?.verified, true);
    assert.equal(result.findings[0]!.location.pointer, "/skills/skillpilot-coach");
  });

  it("an edited listing description, display name or new icons are PATCH, field by field", () => {
    const after = withVersion(project(), "1.1.4");
    after.plugin.directory.description += " Now with practice rounds.";
    after.plugin.displayName = "SkillPilot";
    after.plugin.icons = [{ src: "https://skillpilot.com/icon.png", sizes: ["64x64"] }];
    const result = diff(project(), after);
    assert.deepEqual(
      result.findings.map((f) => [f.ruleId, f.pointer]),
      [
        ["LISTING_CHANGED", "/plugin/directory/description"],
        ["LISTING_CHANGED", "/plugin/displayName"],
        ["LISTING_CHANGED", "/plugin/icons"],
      ],
    );
    assert.equal(result.requiredBump, "patch");
  });

  it("judges a skill bump too low with VERSION_BUMP_TOO_LOW, like a tool change", () => {
    const added = withVersion(project(), "1.1.4");
    added.skills["skillpilot-practice"] = { files: { "SKILL.md": `sha256:${"1".repeat(64)}` } };
    const edited = project();
    edited.skills["skillpilot-coach"].files["SKILL.md"] = `sha256:${"2".repeat(64)}`;
    for (const [after, required] of [
      [added, "minor"],
      [edited, "patch"],
    ] as const) {
      const result = diff(project(), after);
      assert.deepEqual(
        result.problems.map((p) => p.ruleId),
        ["VERSION_BUMP_TOO_LOW"],
      );
      assert.match(result.problems[0]!.message, new RegExp(`require ${required}$`));
    }
  });

  it("compares a snapshot written before skills were recorded without findings about them", () => {
    // A release published before the snapshot carried the skills tree: the same document without it.
    const before = project();
    delete before.skills;
    const result = diff(before, project());
    assert.deepEqual(ids(result), []);
    assert.equal(result.requiredBump, "none");
    const bare = project();
    delete bare.skills;
    delete bare.plugin.directory;
    assert.deepEqual(ids(diff(project(), bare)), []);
    assert.deepEqual(ids(diff(bare, project())), []);
  });
});

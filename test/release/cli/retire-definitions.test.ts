import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import {
  cli as skillpilot,
  commitAll,
  editJson,
  publishRelease,
  useProjectCopies,
} from "../support/temp-project.js";
import { treeDigest } from "../support/tree-digest.js";

describe("bin: retire-definitions and contract show (L4, L12.2)", function () {
  this.timeout(120_000);
  const root = useProjectCopies();

  it("refuses to retire a version that was never published, writing nothing", async () => {
    const before = await treeDigest(root());
    const run = skillpilot(root(), "retire-definitions", "1.1.3", "--reason", "replaced");
    assert.equal(run.code, 1);
    assert.match(run.stderr, /RETIRE_UNPUBLISHED.*1\.1\.3 was never published/);
    assert.equal(await treeDigest(root()), before);
    const usage = skillpilot(root(), "retire-definitions", "not-a-version", "--reason", "x");
    assert.equal(usage.code, 2);
  });

  it(
    "lists each tool's live definition with its holders, retires a release once with a " +
      "reason and date, and refuses a second retirement or an empty reason unchanged",
    async () => {
      await publishRelease(root(), "1.1.3");
      const shown = skillpilot(root(), "contract", "show");
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /^Live approved definitions \(1\.1\.3\):$/m);
      assert.match(
        shown.stdout,
        /^ {2}complete_skillpilot_goal\s+sha256 [0-9a-f]{12}… {2}major 1 {2}1\.1\.3 {2}\(= current\)$/m,
      );
      const json = JSON.parse(skillpilot(root(), "contract", "show", "--json").stdout) as {
        snapshotFormat: string;
        approvedDefinitions: {
          tools: Record<
            string,
            { sha256: string; holders: unknown[]; descriptor: { name: string } }[]
          >;
        };
      };
      assert.equal(json.snapshotFormat, "skillpilot-contract-snapshot/1", "still the snapshot");
      const goal = json.approvedDefinitions.tools.complete_skillpilot_goal;
      assert.equal(goal.length, 1);
      assert.deepEqual(goal[0].holders, [{ kind: "published", version: "1.1.3", imported: false }]);
      assert.equal(goal[0].descriptor.name, "complete_skillpilot_goal");

      const early = await treeDigest(root());
      const tooEarly = skillpilot(
        root(),
        "retire-definitions",
        "1.1.3",
        "--reason",
        "replaced",
        "--date",
        "2026-11-01",
      );
      assert.equal(tooEarly.code, 1);
      assert.match(tooEarly.stderr, /RETIRE_BEFORE_PUBLICATION/);
      const blank = skillpilot(root(), "retire-definitions", "1.1.3", "--reason", " ");
      assert.equal(blank.code, 2);
      assert.match(blank.stderr, /the reason must not be empty/);
      assert.equal(await treeDigest(root()), early, "refusals write nothing");

      const retired = skillpilot(
        root(),
        "retire-definitions",
        "1.1.3",
        "--reason",
        "every host approved 1.1.4",
        "--date",
        "2026-12-02",
      );
      assert.equal(retired.code, 0, retired.stderr);
      assert.match(retired.stdout, /retired the definitions of 1\.1\.3 on 2026-12-02/);
      const once = await treeDigest(root());
      const again = skillpilot(root(), "retire-definitions", "1.1.3", "--reason", "again");
      assert.equal(again.code, 1);
      assert.match(again.stderr, /RETIRE_REPEATED.*already retired on 2026-12-02/);
      assert.equal(await treeDigest(root()), once);

      const after = skillpilot(root(), "contract", "show");
      assert.match(
        after.stdout,
        /^Live approved definitions \(none: nothing published or under review\):$/m,
      );
      assert.match(
        after.stdout,
        /^ {2}retired: 1\.1\.3 on 2026-12-02: every host approved 1\.1\.4$/m,
      );
      assert.match(after.stdout, /^ {2}complete_skillpilot_goal\s+none yet/m);
      assert.equal(skillpilot(root(), "verify").code, 0);
    },
  );

  it("L4: verify keeps the retirement record append-only and about published versions", async () => {
    await publishRelease(root(), "1.1.3");
    assert.equal(
      skillpilot(
        root(),
        "retire-definitions",
        "1.1.3",
        "--reason",
        "replaced",
        "--date",
        "2026-12-02",
      ).code,
      0,
    );
    commitAll(root(), "retire 1.1.3");
    assert.equal(skillpilot(root(), "verify").code, 0);
    await editJson(root(), "contracts/retired-definitions.json", (doc) => {
      (doc.retirements as Record<string, string>[])[0].reason = "rewritten";
    });
    const rewritten = skillpilot(root(), "verify");
    assert.equal(rewritten.code, 1);
    assert.match(rewritten.stderr, /RELEASE_RECORD_REWRITTEN.*retirement of 1\.1\.3 differs/);
    await writeFile(
      path.join(root(), "contracts/retired-definitions.json"),
      JSON.stringify({
        format: "skillpilot-retired-definitions/1",
        retirements: [{ version: "9.9.9", reason: "typo", retiredAt: "2026-12-02" }],
      }),
    );
    const unknown = skillpilot(root(), "verify");
    assert.match(unknown.stderr, /RETIRED_DEFINITIONS_INVALID.*names 9\.9\.9/);
    assert.match(
      unknown.stderr,
      /RELEASE_RECORD_REWRITTEN.*no longer holds the retirement of 1\.1\.3/,
    );
  });
});

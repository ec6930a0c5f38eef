import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { publishedBaselines } from "../../checks/diff/baselines.js";
import { liveApprovedDefinitions, retiredReleases } from "../../evolution/approved-definitions.js";
import { canonicalSha256 } from "../../contract-model/canonical.js";
import { readSnapshot } from "../../contract-model/snapshot.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { freeze } from "../../release/freeze/freeze.js";
import { prepare } from "../../release/prepare/prepare.js";
import { retireDefinitions } from "../../release/retire/retire-definitions.js";
import {
  editJson,
  publishRelease,
  regenerate,
  ruleIds,
  useProjectCopies,
} from "../release/support/temp-project.js";

const changed = "complete_skillpilot_goal";

/** Bump the package to 1.1.4 with one tool's description revised, then prepare and freeze it. */
async function freezeRevision(root: string): Promise<void> {
  await editJson(root, "schemas/plugin.json", (p) => {
    p.packageVersion = "1.1.4";
  });
  await editJson(root, `schemas/tools/${changed}.json`, (tool) => {
    tool.description = `${String(tool.description)} Revised for review.`;
  });
  await regenerate(root);
  assert.deepEqual(ruleIds((await prepare(root)).diagnostics), []);
  assert.equal((await freeze(root, "1.1.4", new Date("2026-12-01T00:00:00Z"))).outcome, "done");
}

describe("contract-model: live approved definitions (L4, L12.2)", function () {
  this.timeout(120_000);
  const root = useProjectCopies();

  it("knows nothing before anything is published or frozen", async () => {
    const defs = await liveApprovedDefinitions(root());
    assert.equal(defs.tools.size, 0);
    assert.deepEqual(defs.holders, []);
    assert.deepEqual(await retiredReleases(root()), []);
  });

  it(
    "holds every tool of a published release, then groups identical definitions of the " +
      "frozen draft with it and keeps a revised one apart",
    async () => {
      await publishRelease(root(), "1.1.3");
      const published = await liveApprovedDefinitions(root());
      const snapshot = await readSnapshot(root());
      assert.equal(published.tools.size, snapshot.tools.length);
      for (const tool of snapshot.tools) {
        const [only, ...more] = published.tools.get(tool.name) ?? [];
        assert.deepEqual(more, []);
        const { kind: _kind, ...descriptor } = tool;
        assert.deepEqual(only.descriptor, descriptor, "the tools/list descriptor, without kind");
        assert.equal(only.sha256, canonicalSha256(descriptor));
        assert.equal(only.contractMajor, 1);
        assert.deepEqual(
          only.holders.map((h) => [h.kind, h.version]),
          [["published", "1.1.3"]],
        );
      }

      await freezeRevision(root());
      const both = await liveApprovedDefinitions(root());
      assert.deepEqual(
        both.holders.map((h) => `${h.kind} ${h.version}`),
        ["published 1.1.3", "frozen-draft 1.1.4"],
      );
      const revised = both.tools.get(changed) ?? [];
      assert.deepEqual(
        revised.map((d) => d.holders.map((h) => h.version)),
        [["1.1.3"], ["1.1.4"]],
      );
      assert.notEqual(revised[0].sha256, revised[1].sha256);
      assert.match(String(revised[1].descriptor.description), /Revised for review\.$/);
      const same = both.tools.get("get_skillpilot_learning_context") ?? [];
      assert.deepEqual(
        same.map((d) => d.holders.map((h) => h.kind)),
        [["published", "frozen-draft"]],
        "an unchanged tool is one definition held by both",
      );
    },
  );

  it(
    "drops a retired release's definitions, and Contract-Diff's default baselines " +
      "follow: retired releases out, the frozen draft in",
    async () => {
      await publishRelease(root(), "1.1.3");
      await freezeRevision(root());
      const diagnostics: Diagnostic[] = [];
      const before = await publishedBaselines(root(), diagnostics);
      assert.deepEqual(
        before.map((d) => d.packageVersion),
        ["1.1.3", "1.1.4"],
      );
      assert.match(
        before[1].file,
        /^contracts\/drafts\/openai\/skillpilot-coach\/1\.1\.4-SNAPSHOT\//,
      );

      const retired = await retireDefinitions(root(), "1.1.3", "every host approved 1.1.4", {
        retiredAt: "2026-12-02",
      });
      assert.equal(retired.outcome, "done", JSON.stringify(retired.diagnostics));
      assert.deepEqual(await retiredReleases(root()), [
        { version: "1.1.3", reason: "every host approved 1.1.4", retiredAt: "2026-12-02" },
      ]);
      const after = await liveApprovedDefinitions(root());
      assert.deepEqual(
        after.holders.map((h) => h.kind),
        ["frozen-draft"],
      );
      assert.deepEqual(
        (after.tools.get(changed) ?? []).map((d) => d.holders.map((h) => h.version)),
        [["1.1.4"]],
      );
      assert.deepEqual(
        (await publishedBaselines(root(), diagnostics)).map((d) => d.packageVersion),
        ["1.1.4"],
      );
      assert.deepEqual(diagnostics, []);
    },
  );

  it("skips a published snapshot that disagrees with the index, naming it", async () => {
    await publishRelease(root(), "1.1.3");
    const file = path.join(
      root(),
      "contracts/published/openai/skillpilot-coach/1.1.3/contract.snapshot.json",
    );
    await writeFile(file, `${await readFile(file, "utf8")}\n`);
    const defs = await liveApprovedDefinitions(root());
    assert.equal(defs.tools.size, 0);
    assert.match(defs.problems.join("\n"), /1\.1\.3\/contract\.snapshot\.json differs from/);
  });
});

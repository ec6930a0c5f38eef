import assert from "node:assert/strict";
import { appendFile, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { runDiff } from "../../../checks/diff/run-diff.js";
import { projectLayout } from "../../../contract-model/project/project-layout.js";
import { readUiActivations } from "../../../contract-model/ui/ui-store.js";
import { retainedUiPath } from "../../../contract-model/ui/ui-uri.js";
import { activateUi } from "../../../release/ui/activate-ui.js";
import { buildAllUi } from "../../../release/ui/build-ui.js";
import { verifyRelease } from "../../../release/verify/verify.js";
import { git as gitIn } from "../../support/temp-project.js";
import { ruleIds, useProjectCopies } from "../support/temp-project.js";

/** Activate a changed goal-visualization page; returns the URI it replaced and the new one. */
async function activateNewGoalPage(root: string): Promise<{ previous: string; next: string }> {
  const line = JSON.parse(await readFile(path.join(root, projectLayout.lineFile), "utf8"));
  const previous = String(line.activeUi["goal-visualization"]);
  await writeFile(
    path.join(root, "ui/goal-visualization/index.html"),
    "<!doctype html><p>goal v2</p>\n",
  );
  const result = await activateUi(root, await buildAllUi(root, 1));
  assert.deepEqual(ruleIds(result.diagnostics), []);
  const next = JSON.parse(await readFile(path.join(root, projectLayout.lineFile), "utf8")).activeUi[
    "goal-visualization"
  ] as string;
  assert.notEqual(next, previous);
  return { previous, next };
}

/** The project's diff against its own generated snapshot: only ever-active UI facts can differ. */
const diffSelf = (root: string, waiverFile?: string) =>
  runDiff({
    root,
    snapshotFile: projectLayout.snapshotFile,
    against: projectLayout.snapshotFile,
    now: new Date("2026-11-30T00:00:00Z"),
    ...(waiverFile ? { waiverFile } : {}),
  });

describe("UI retention from first delivery: every URI ever active stays readable (L10)", function () {
  this.timeout(60000);
  const project = useProjectCopies();
  let root: string;
  beforeEach(() => {
    root = project();
  });

  it(
    "ui build --activate records every activated URI; the replaced one stays recorded and " +
      "retained",
    async () => {
      const { previous, next } = await activateNewGoalPage(root);
      const recorded = (await readUiActivations(root)).map((a) => a.uri);
      assert.ok(recorded.includes(previous) && recorded.includes(next), recorded.join("\n"));
      assert.ok(recorded.indexOf(previous) < recorded.indexOf(next), "append-only, in order");
      assert.deepEqual(ruleIds(await verifyRelease(root)), []);
      const outcome = await diffSelf(root);
      assert.equal(outcome.status, "compared");
      assert.equal(outcome.status === "compared" && outcome.failed, false);
    },
  );

  it(
    "a deleted store file of a URI that was active before fails verify (UI_NOT_RETAINED) " +
      "and Contract-Diff (UI_SERVED_URI_MISSING, not waivable)",
    async () => {
      const { previous } = await activateNewGoalPage(root);
      await rm(path.join(root, retainedUiPath(previous)!));
      const verified = await verifyRelease(root);
      assert.deepEqual(ruleIds(verified), ["UI_NOT_RETAINED"]);
      assert.match(verified[0].message, /recorded as active in contracts\/ui-activations\.json/);

      const outcome = await diffSelf(root);
      assert.equal(outcome.status, "compared");
      if (outcome.status !== "compared") return;
      assert.equal(outcome.failed, true);
      const missing = outcome.result.findings.filter((f) => f.ruleId === "UI_SERVED_URI_MISSING");
      assert.equal(missing.length, 1);
      assert.match(
        missing[0].message,
        new RegExp(`${previous.replace(/[./]/g, "\\$&")} was served`),
      );
      // No waiver can accept it.
      await writeFile(
        path.join(root, "waivers.json"),
        JSON.stringify({
          waivers: [
            {
              fingerprint: missing[0].fingerprint,
              ruleId: "UI_SERVED_URI_MISSING",
              reason: "try to hide it",
              approver: "release-lead",
              expires: "2027-01-01",
            },
          ],
        }),
      );
      const waived = await diffSelf(root, "waivers.json");
      assert.equal(waived.status === "compared" && waived.failed, true);
      assert.ok(
        waived.status === "compared" &&
          waived.result.problems.some((p) => p.ruleId === "WAIVER_NOT_ALLOWED"),
      );
    },
  );

  it("changed bytes under a URI that was active fail verify and Contract-Diff", async () => {
    const { previous } = await activateNewGoalPage(root);
    await appendFile(path.join(root, retainedUiPath(previous)!), "<!-- edited -->\n");
    assert.deepEqual(ruleIds(await verifyRelease(root)), ["UI_BYTES_CHANGED"]);
    const outcome = await diffSelf(root);
    assert.ok(
      outcome.status === "compared" &&
        outcome.result.findings.some((f) => f.ruleId === "UI_IMMUTABLE_BYTES_CHANGED"),
    );
  });

  it(
    "the record itself is checked: a URI the line's git history made active must be in it " +
      "(UI_ACTIVATION_UNRECORDED)",
    async () => {
      const { previous } = await activateNewGoalPage(root);
      const git = (...args: string[]) => gitIn(root, ...args);
      git("init", "-q");
      const line = path.join(root, projectLayout.lineFile);
      const current = await readFile(line, "utf8");
      // Commit the line as it was before the activation, then as it is now.
      await writeFile(
        line,
        current.replace(/ui:\/\/[^"]+sha256-[0-9a-f]{64}[^"]*(?=",?\n\s*"memory)/, previous),
      );
      git("add", "-A");
      git("commit", "-q", "-m", "before");
      await writeFile(line, current);
      git("commit", "-q", "-am", "after");
      assert.deepEqual(ruleIds(await verifyRelease(root)), []);
      // Drop the replaced URI from the record and from the store: only git still knows it.
      const record = path.join(root, projectLayout.uiActivations);
      const doc = JSON.parse(await readFile(record, "utf8"));
      doc.activations = doc.activations.filter((a: { uri: string }) => a.uri !== previous);
      await writeFile(record, JSON.stringify(doc));
      await rm(path.join(root, retainedUiPath(previous)!));
      const verified = await verifyRelease(root);
      assert.deepEqual(ruleIds(verified), ["UI_ACTIVATION_UNRECORDED"]);
      assert.match(verified[0].message, /was active in release\/line\.json at commit [0-9a-f]{12}/);
    },
  );
});

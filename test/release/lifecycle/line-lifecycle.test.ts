import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { freeze } from "../../../release/freeze/freeze.js";
import {
  allowedTargets,
  reachableTargets,
  transitionAllowed,
} from "../../../release/line/line-history.js";
import { projectLayout, publishedDir } from "../../../contract-model/project/project-layout.js";
import { prepare } from "../../../release/prepare/prepare.js";
import { recordPublished } from "../../../release/publish/record-published.js";
import { readReleaseIndex } from "../../../contract-model/release/release-index.js";
import { verifyRelease } from "../../../release/verify/verify.js";
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import { checkGenerated } from "../../../generator/write.js";
import {
  commitAll,
  editJson,
  regenerate,
  removeProject,
  ruleIds,
  useProjectCopies,
  noLiveServer,
} from "../support/temp-project.js";
import { git } from "../../support/temp-project.js";

const V = "1.1.3";
const at = new Date("2026-11-30T09:00:00Z");

const readLine = async (root: string) =>
  JSON.parse(await readFile(path.join(root, projectLayout.lineFile), "utf8")) as Record<
    string,
    unknown
  >;

/** Edit release/line.json and regenerate (the snapshot carries the line). */
async function setLine(root: string, edit: (line: Record<string, unknown>) => void) {
  await editJson(root, projectLayout.lineFile, edit);
  await regenerate(root);
}

async function publish(root: string): Promise<void> {
  assert.deepEqual(ruleIds((await prepare(root)).diagnostics), []);
  assert.equal((await freeze(root, V, at)).outcome, "done");
  const recorded = await recordPublished(root, V, {
    publishedAt: "2026-11-30",
    now: at,
    withoutLiveEvidence: noLiveServer,
  });
  assert.equal(recorded.outcome, "done", JSON.stringify(recorded.diagnostics));
}

describe("contract-line lifecycle: transitions and a monotonic policyRevision (L4, L11)", function () {
  this.timeout(60000);
  const project = useProjectCopies();
  let root: string;
  beforeEach(() => {
    root = project();
  });

  it("contract-line-transition/v1 is the one table of allowed transitions (L4, L11)", () => {
    assert.deepEqual(allowedTargets("publicationStatus", "DRAFT"), ["DRAFT", "PUBLISHED"]);
    assert.deepEqual(allowedTargets("publicationStatus", "PUBLISHED"), [
      "PUBLISHED",
      "UNPUBLISHED",
    ]);
    assert.deepEqual(allowedTargets("supportLifecycle", "DEPRECATED"), ["DEPRECATED", "RETIRED"]);
    assert.deepEqual(allowedTargets("supportLifecycle", "RETIRED"), ["RETIRED"]);
    assert.equal(transitionAllowed("newSessionPolicy", "BLOCK", "ALLOW"), true);
    assert.equal(transitionAllowed("publicationStatus", "UNPUBLISHED", "DRAFT"), false);
  });

  it(
    "L4, L11: record-published moves the line to PUBLISHED, records that state in the index " +
      "and regenerates the contract; verify stays green",
    async () => {
      assert.equal((await readLine(root)).publicationStatus, "DRAFT");
      await publish(root);
      assert.equal((await readLine(root)).publicationStatus, "PUBLISHED");
      const [entry] = (await readReleaseIndex(root)).releases;
      assert.deepEqual(entry.line, {
        policyRevision: 3,
        supportLifecycle: "CURRENT",
        publicationStatus: "PUBLISHED",
        newSessionPolicy: "ALLOW",
      });
      const snapshot = JSON.parse(
        await readFile(path.join(root, projectLayout.snapshotFile), "utf8"),
      ) as { line: { publicationStatus: string } };
      assert.equal(snapshot.line.publicationStatus, "PUBLISHED");
      const generated = await generateFromSources(await readContractSources(defaultPaths(root)));
      assert.deepEqual(await checkGenerated(root, generated.files), [], "generated/ is current");
      assert.deepEqual(ruleIds(await verifyRelease(root)), []);
      // Recording again is a no-op.
      assert.equal((await recordPublished(root, V)).outcome, "unchanged");
    },
  );

  it("L11: verify refuses a policyRevision below the recorded one (3 → 2), accepts 4", async () => {
    await publish(root);
    await setLine(root, (l) => (l.policyRevision = 2));
    const lowered = await verifyRelease(root);
    assert.deepEqual(ruleIds(lowered), ["LINE_REVISION_LOWERED"]);
    assert.match(
      lowered[0].message,
      /policyRevision 2 is below 3, recorded by contracts\/release-index\.json \(1\.1\.3\)/,
    );
    assert.equal(lowered[0].location.pointer, "/policyRevision");
    await setLine(root, (l) => (l.policyRevision = 4));
    assert.deepEqual(ruleIds(await verifyRelease(root)), []);
  });

  it(
    "L11: a revision recorded only in a published snapshot counts too (an index entry " +
      "that lost it does not lower the floor)",
    async () => {
      await publish(root);
      await editJson(root, projectLayout.releaseIndex, (doc) => {
        const [entry] = doc.releases as Record<string, unknown>[];
        delete entry.line;
        entry.linePolicyRevision = 1;
      });
      await setLine(root, (l) => (l.policyRevision = 2));
      const ids = ruleIds(await verifyRelease(root));
      assert.ok(ids.includes("LINE_REVISION_LOWERED"), ids.join());
    },
  );

  it(
    "L4, L11: forbidden transitions are refused with a diagnostic: a published line never " +
      "becomes a DRAFT again; withdrawing it (UNPUBLISHED) and deprecating it are allowed",
    async () => {
      await publish(root);
      await setLine(root, (l) => (l.publicationStatus = "DRAFT"));
      const back = await verifyRelease(root);
      assert.deepEqual(ruleIds(back), ["LINE_TRANSITION_FORBIDDEN"]);
      assert.match(back[0].message, /publicationStatus PUBLISHED → DRAFT is not an allowed/);
      await setLine(root, (l) => {
        l.publicationStatus = "UNPUBLISHED";
        l.supportLifecycle = "DEPRECATED";
      });
      assert.deepEqual(ruleIds(await verifyRelease(root)), []);
    },
  );

  it(
    "L11: with --since git:REF verify also judges the change from the committed line " +
      "(DEPRECATED never becomes CURRENT again)",
    async () => {
      await publish(root);
      await setLine(root, (l) => (l.supportLifecycle = "DEPRECATED"));
      commitAll(root, "deprecated");
      await setLine(root, (l) => (l.supportLifecycle = "CURRENT"));
      // The index recorded CURRENT; the committed history of the line says DEPRECATED.
      assert.deepEqual(ruleIds(await verifyRelease(root)), ["LINE_TRANSITION_FORBIDDEN"]);
      const since = await verifyRelease(root, { since: "git:HEAD" });
      assert.deepEqual(ruleIds(since), ["LINE_TRANSITION_FORBIDDEN"]);
      assert.match(since[0].message, /supportLifecycle DEPRECATED → CURRENT .*git:HEAD/);
      assert.deepEqual(
        ruleIds(await verifyRelease(root, { since: "git:no-such-ref" }), "warning"),
        ["LINE_BASELINE_MISSING"],
      );
    },
  );

  it("L11: record-published refuses under a RETIRED line and writes nothing", async () => {
    await setLine(root, (l) => {
      l.supportLifecycle = "RETIRED";
      l.publicationStatus = "UNPUBLISHED";
      l.newSessionPolicy = "BLOCK";
    });
    assert.deepEqual(ruleIds((await prepare(root)).diagnostics), []);
    await freeze(root, V, at);
    const refused = await recordPublished(root, V, {
      publishedAt: "2026-11-30",
      now: at,
      withoutLiveEvidence: noLiveServer,
    });
    assert.deepEqual(ruleIds(refused.diagnostics), ["LINE_TRANSITION_FORBIDDEN"]);
    assert.match(refused.diagnostics[0].message, /RETIRED line stays UNPUBLISHED/);
    assert.equal(
      await stat(path.join(root, publishedDir("skillpilot-coach", V))).catch(() => undefined),
      undefined,
    );
    assert.deepEqual((await readReleaseIndex(root)).releases, []);
    assert.equal((await readLine(root)).publicationStatus, "UNPUBLISHED");
  });
});

describe("contract-line lifecycle across the whole git history of release/line.json (L4, L11)", function () {
  this.timeout(60000);
  const project = useProjectCopies();
  let root: string;
  beforeEach(async () => {
    root = project();
    commitAll(root, "line at revision 3");
  });

  /** Set the line, regenerate and commit it. */
  async function commitLine(message: string, edit: (line: Record<string, unknown>) => void) {
    await setLine(root, edit);
    commitAll(root, message);
  }
  const unrelated = async () => {
    await writeFile(path.join(root, "NOTES.md"), `unrelated ${Math.random()}\n`);
    commitAll(root, "unrelated");
  };

  it("L11: the transitions reachable from a state are the schema's, applied repeatedly", () => {
    assert.deepEqual([...reachableTargets("publicationStatus", "DRAFT")].sort(), [
      "DRAFT",
      "PUBLISHED",
      "UNPUBLISHED",
    ]);
    assert.deepEqual([...reachableTargets("publicationStatus", "UNPUBLISHED")].sort(), [
      "PUBLISHED",
      "UNPUBLISHED",
    ]);
    assert.deepEqual([...reachableTargets("supportLifecycle", "SUPPORTED")].sort(), [
      "DEPRECATED",
      "RETIRED",
      "SUPPORTED",
    ]);
  });

  it(
    "L11: a history that only moves forward passes (revision 3 → 4 → 5, CURRENT → SUPPORTED → " +
      "DEPRECATED, ALLOW → BLOCK → ALLOW)",
    async () => {
      await commitLine("4", (l) => {
        l.policyRevision = 4;
        l.supportLifecycle = "SUPPORTED";
        l.newSessionPolicy = "BLOCK";
      });
      await commitLine("5", (l) => {
        l.policyRevision = 5;
        l.supportLifecycle = "DEPRECATED";
        l.newSessionPolicy = "ALLOW";
      });
      await unrelated();
      assert.deepEqual(ruleIds(await verifyRelease(root, { since: "git:HEAD" })), []);
      assert.deepEqual(ruleIds(await verifyRelease(root, { since: "git:HEAD" }), "note"), []);
    },
  );

  it(
    "L11: revision 4, then 3, then an unrelated commit: `verify --since git:HEAD` (CI's baseline " +
      "on main is HEAD~1) still finds the lowered policyRevision",
    async () => {
      await commitLine("raise to 4", (l) => (l.policyRevision = 4));
      const raised = git(root, "rev-parse", "HEAD").trim().slice(0, 12);
      await commitLine("lower to 3", (l) => (l.policyRevision = 3));
      await unrelated();
      for (const options of [{ since: "git:HEAD" }, { since: "git:HEAD~1" }, {}]) {
        const found = await verifyRelease(root, options);
        assert.deepEqual(ruleIds(found), ["LINE_REVISION_LOWERED"], JSON.stringify(options));
        assert.match(
          found[0].message,
          new RegExp(`policyRevision 3 is below 4, recorded by git:${raised}:release/line\\.json`),
        );
      }
      await commitLine("raise to 5", (l) => (l.policyRevision = 5));
      assert.deepEqual(ruleIds(await verifyRelease(root, { since: "git:HEAD" })), []);
    },
  );

  it(
    "L11: DEPRECATED → CURRENT committed, then an unrelated commit, is still a forbidden " +
      "transition",
    async () => {
      await commitLine("deprecate", (l) => (l.supportLifecycle = "DEPRECATED"));
      await commitLine("undo", (l) => (l.supportLifecycle = "CURRENT"));
      await unrelated();
      const found = await verifyRelease(root, { since: "git:HEAD" });
      assert.deepEqual(ruleIds(found), ["LINE_TRANSITION_FORBIDDEN"]);
      assert.match(found[0].message, /supportLifecycle DEPRECATED → CURRENT .*git:[0-9a-f]{12}:/);
      assert.equal(found[0].location.pointer, "/supportLifecycle");
    },
  );

  it(
    "L4, L11 (adversarial): a published line made a DRAFT again two commits ago is found, " +
      "a broken or foreign-major version of the file in the history is skipped",
    async () => {
      await publish(root);
      commitAll(root, "record 1.1.3");
      const file = path.join(root, projectLayout.lineFile);
      const published = await readLine(root);
      await writeFile(file, "{ not json");
      commitAll(root, "broken line");
      await writeFile(file, JSON.stringify({ ...published, contractMajor: 2, policyRevision: 9 }));
      commitAll(root, "a line of contract major 2 at revision 9");
      await setLine(root, (l) => Object.assign(l, published, { publicationStatus: "DRAFT" }));
      commitAll(root, "back to a draft");
      await unrelated();
      const found = await verifyRelease(root, { since: "git:HEAD" });
      assert.deepEqual(ruleIds(found), ["LINE_TRANSITION_FORBIDDEN"], JSON.stringify(found));
      assert.match(found[0].message, /publicationStatus PUBLISHED → DRAFT/);
    },
  );

  it(
    "L11: in a shallow clone verify checks the commits it has and says so with a note " +
      "(VERIFY_HISTORY_SHALLOW)",
    async () => {
      await commitLine("raise to 4", (l) => (l.policyRevision = 4));
      await commitLine("lower to 3", (l) => (l.policyRevision = 3));
      await unrelated();
      const clone = `${root}-shallow`;
      git(root, "clone", "-q", "--depth", "2", `file://${root}`, clone);
      try {
        const found = await verifyRelease(clone, { since: "git:HEAD~1" });
        assert.deepEqual(ruleIds(found, "note"), ["VERIFY_HISTORY_SHALLOW"]);
        assert.deepEqual(ruleIds(found), [], "revision 4 is beyond the shallow boundary");
        const full = await verifyRelease(root, { since: "git:HEAD~1" });
        assert.deepEqual(ruleIds(full, "note"), []);
        assert.deepEqual(ruleIds(full), ["LINE_REVISION_LOWERED"]);
      } finally {
        await removeProject(clone);
      }
    },
  );
});

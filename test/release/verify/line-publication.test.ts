import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { projectLayout } from "../../../contract-model/project/project-layout.js";
import { verifyRelease } from "../../../release/verify/verify.js";
import {
  cliVerify,
  commitAll,
  editJson,
  publishRelease,
  regenerate,
  ruleIds,
  useProjectCopies,
} from "../support/temp-project.js";

/** Edit release/line.json and regenerate (the snapshot carries the line). */
async function setLine(root: string, edit: (line: Record<string, unknown>) => void) {
  await editJson(root, projectLayout.lineFile, edit);
  await regenerate(root);
}

describe("verify: only record-published publishes a contract line (L4, L11)", function () {
  this.timeout(60000);
  const project = useProjectCopies();
  let root: string;
  beforeEach(() => {
    root = project();
  });

  it("L4: a DRAFT line without releases, and a line record-published moved, pass", async () => {
    assert.deepEqual(ruleIds(await verifyRelease(root)), []);
    await publishRelease(root, "1.1.3");
    assert.deepEqual(ruleIds(await verifyRelease(root)), []);
    await setLine(root, (l) => (l.publicationStatus = "UNPUBLISHED"));
    assert.deepEqual(ruleIds(await verifyRelease(root)), [], "a published line may be withdrawn");
  });

  it(
    "L4: DRAFT → PUBLISHED by hand (then generate) fails `verify --since git:HEAD` with exit 1: " +
      "the release index records no release of contract major 1",
    async () => {
      commitAll(root, "draft line");
      await setLine(root, (l) => (l.publicationStatus = "PUBLISHED"));
      const found = await verifyRelease(root, { since: "git:HEAD" });
      assert.deepEqual(ruleIds(found), ["LINE_PUBLICATION_UNRECORDED"]);
      assert.equal(found[0].location.file, projectLayout.lineFile);
      assert.equal(found[0].location.pointer, "/publicationStatus");
      assert.match(
        found[0].message,
        /publicationStatus PUBLISHED for contract major 1, but contracts\/release-index\.json records no published release of contract major 1/,
      );
      const cli = cliVerify(root, "--since", "git:HEAD");
      assert.equal(cli.status, 1, cli.output);
      assert.match(cli.output, /LINE_PUBLICATION_UNRECORDED/);
    },
  );

  it(
    "L4, L11 (adversarial): a withdrawn or RETIRED line claims a publication too, and a line " +
      "under release/lines/ is judged by its own contract major",
    async () => {
      await setLine(root, (l) => {
        l.supportLifecycle = "RETIRED";
        l.publicationStatus = "UNPUBLISHED";
        l.newSessionPolicy = "BLOCK";
      });
      assert.deepEqual(ruleIds(await verifyRelease(root)), ["LINE_PUBLICATION_UNRECORDED"]);
      await setLine(root, (l) => {
        l.supportLifecycle = "CURRENT";
        l.publicationStatus = "DRAFT";
        l.newSessionPolicy = "ALLOW";
      });
      await publishRelease(root, "1.1.3");
      // A published release of major 1 does not make a major-2 line published.
      await mkdir(path.join(root, projectLayout.linesDir), { recursive: true });
      const other = `${projectLayout.linesDir}/v2.json`;
      const line = { contractMajor: 2, policyRevision: 1, displayName: "SkillPilot Coach" };
      const axes = { supportLifecycle: "CURRENT", newSessionPolicy: "ALLOW", successor: null };
      await writeFile(
        path.join(root, other),
        JSON.stringify({ ...line, ...axes, publicationStatus: "PUBLISHED" }),
      );
      const found = await verifyRelease(root);
      assert.deepEqual(ruleIds(found), ["LINE_PUBLICATION_UNRECORDED"]);
      assert.equal(found[0].location.file, other);
      await writeFile(
        path.join(root, other),
        JSON.stringify({ ...line, ...axes, publicationStatus: "DRAFT" }),
      );
      assert.deepEqual(ruleIds(await verifyRelease(root)), []);
    },
  );
});

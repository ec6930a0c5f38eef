import assert from "node:assert/strict";
import { appendFile, cp, mkdir, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sha256Hex } from "../../../contract-model/file-tree/sha256-manifest.js";
import { checkFrozenContract } from "../../../release/freeze/assert-not-drifted.js";
import { freeze, unfreeze } from "../../../release/freeze/freeze.js";
import { readFreezeState } from "../../../contract-model/release/review-freeze.js";
import {
  projectLayout,
  draftDir,
  publishedDir,
} from "../../../contract-model/project/project-layout.js";
import { prepare } from "../../../release/prepare/prepare.js";
import { recordPublished } from "../../../release/publish/record-published.js";
import { readReleaseIndex } from "../../../contract-model/release/release-index.js";
import { activateUi } from "../../../release/ui/activate-ui.js";
import { buildAllUi } from "../../../release/ui/build-ui.js";
import { verifyRelease } from "../../../release/verify/verify.js";
import { appendLiveEvidence } from "../../../release/publish/live-evidence.js";
import { treeDigest } from "../support/tree-digest.js";
import {
  editJson,
  regenerate,
  removeProject,
  ruleIds,
  useProjectCopies,
  noLiveServer,
} from "../support/temp-project.js";

const V = "1.1.3";
const DRAFT = draftDir("skillpilot-coach", V);
const PUBLISHED = publishedDir("skillpilot-coach", V);
const at = new Date("2026-11-30T09:00:00Z");

/** Change a tool description (a PATCH-level contract change) and regenerate. */
async function changeContract(root: string): Promise<void> {
  await editJson(root, "schemas/tools/get_skillpilot_learning_context.json", (doc) => {
    doc.description = `${String(doc.description)} Call it once per learner message.`;
  });
  await regenerate(root);
}

async function bumpVersion(root: string, version: string): Promise<void> {
  await editJson(root, "schemas/plugin.json", (doc) => {
    doc.packageVersion = version;
  });
  await regenerate(root);
}

/** prepare → freeze → record-published on a project copy. */
async function publish(root: string, version = V): Promise<void> {
  assert.deepEqual(ruleIds((await prepare(root)).diagnostics), []);
  assert.equal((await freeze(root, version, at)).outcome, "done");
  assert.equal(
    (
      await recordPublished(root, version, {
        publishedAt: "2026-11-30",
        now: at,
        withoutLiveEvidence: noLiveServer,
      })
    ).outcome,
    "done",
  );
}

describe(
  "release: prepare, review freeze, record-published, verify (L3, L4, L5, " + "L10, L12)",
  function () {
    this.timeout(60000);
    const project = useProjectCopies();
    let root: string;
    beforeEach(() => {
      root = project();
    });

    describe("prepare (L3, L5)", () => {
      it(
        "L3: writes <X>-SNAPSHOT with the package tree, snapshot, SHA256SUMS and " +
          "both archives; the manifest carries X",
        async () => {
          const result = await prepare(root);
          assert.deepEqual(ruleIds(result.diagnostics), []);
          assert.equal(result.dir, DRAFT);
          const dir = path.join(root, DRAFT);
          assert.deepEqual((await readdir(dir)).sort(), [
            "SHA256SUMS",
            "chatgpt-app-submission.json",
            "claude-directory-report.json",
            "contract.snapshot.json",
            "directory-submission.zip",
            "package",
            "plugin-install-bundle.tar.gz",
          ]);
          const manifest = JSON.parse(
            await readFile(path.join(dir, "package/plugin.json"), "utf8"),
          );
          assert.equal(manifest.version, V);
          assert.equal(manifest.name, "skillpilot-coach");
          assert.equal(
            JSON.stringify(manifest).includes("/internal/"),
            false,
            "internal adapter path stays out of the package",
          );
          const sums = await readFile(path.join(dir, "SHA256SUMS"), "utf8");
          const listed = sums
            .trim()
            .split("\n")
            .map((l) => l.slice(66));
          assert.deepEqual(
            listed,
            [...listed].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
          );
          assert.ok(listed.includes("package/skills/skillpilot-coach/references/flow.md"));
          for (const line of sums.trim().split("\n"))
            assert.equal(
              sha256Hex(await readFile(path.join(dir, line.slice(66)))),
              line.slice(0, 64),
              line,
            );
          assert.equal(
            result.draft!.snapshotSha256,
            sha256Hex(await readFile(path.join(root, "generated/contract.snapshot.json"))),
          );
        },
      );

      it(
        "L5: the install bundle is a USTAR tar of exactly the package tree (no " +
          "server), the ZIP the same tree",
        async () => {
          const { draft } = await prepare(root);
          const tar = gunzipSync(
            await readFile(path.join(root, DRAFT, "plugin-install-bundle.tar.gz")),
          );
          assert.equal(tar.subarray(257, 263).toString("latin1"), "ustar\0");
          assert.equal(sha256Hex(tar), draft!.archives.tar);
          const names: string[] = [];
          for (let off = 0; off + 512 <= tar.length && tar[off] !== 0; ) {
            const size = parseInt(
              tar
                .subarray(off + 124, off + 136)
                .toString("latin1")
                .trim() || "0",
              8,
            );
            names.push(
              tar
                .subarray(off, off + 100)
                .toString("latin1")
                .replace(/\0.*$/s, ""),
            );
            off += 512 + Math.ceil(size / 512) * 512;
          }
          const pkg = (await readFile(path.join(root, DRAFT, "SHA256SUMS"), "utf8"))
            .split("\n")
            .filter((l) => l.includes("  package/"))
            .map((l) => l.slice(66 + "package/".length));
          assert.deepEqual(names, pkg);
          assert.ok(!names.some((n) => /^(runtime|bin|generator|server)\//.test(n)));
        },
      );

      it("L3, L5: preparing twice is a no-op and gives the same bytes", async () => {
        const first = await prepare(root);
        const again = await prepare(root);
        assert.equal(again.outcome, "unchanged");
        assert.deepEqual(again.draft!.archives, first.draft!.archives);
        assert.equal(again.draft!.contentSha256, first.draft!.contentSha256);
      });

      it(
        "L12.1: refuses a --version other than packageVersion, and a version that " +
          "is not x.y.z",
        async () => {
          assert.deepEqual(ruleIds((await prepare(root, { version: "1.2.0" })).diagnostics), [
            "RELEASE_VERSION_MISMATCH",
          ]);
          assert.deepEqual(ruleIds((await prepare(root, { version: "1.1" })).diagnostics), [
            "RELEASE_VERSION_INVALID",
          ]);
          assert.deepEqual(ruleIds((await prepare(root, { version: "1.1.3-rc.1" })).diagnostics), [
            "RELEASE_VERSION_INVALID",
          ]);
          assert.equal(
            await readdir(path.join(root, "contracts/drafts")).catch(() => "absent"),
            "absent",
            "nothing written",
          );
        },
      );

      it(
        "L5: a symlink in the skills tree fails prepare with a clear message and " +
          "writes nothing",
        async () => {
          await symlink("SKILL.md", path.join(root, "skills/skillpilot-coach/alias.md"));
          const result = await prepare(root);
          assert.deepEqual(ruleIds(result.diagnostics), ["BUNDLE_INPUT_INVALID"]);
          assert.match(
            result.diagnostics.find((d) => d.ruleId === "BUNDLE_INPUT_INVALID")!.message,
            /alias\.md: a symbolic link cannot be bundled/,
          );
          assert.equal(
            await readdir(path.join(root, "contracts/drafts")).catch(() => "absent"),
            "absent",
          );
        },
      );

      it("L3: refuses when generated/ drifted from the schemas", async () => {
        await editJson(root, "schemas/tools/get_skillpilot_learning_context.json", (doc) => {
          doc.title = "Changed without regenerating";
        });
        assert.ok(
          ruleIds((await prepare(root)).diagnostics).some(
            (id) => id === "SOURCE_CHANGED" || id === "GENERATED_DRIFT",
          ),
        );
      });

      it(
        "L10: warns when ui/ moved on without activation (the active page is retained), and " +
          "refuses an active UI URI whose bytes exist nowhere",
        async () => {
          await appendFile(
            path.join(root, "ui/goal-visualization/index.html"),
            "<!-- changed -->\n",
          );
          const moved = await prepare(root);
          assert.deepEqual(ruleIds(moved.diagnostics), []);
          assert.deepEqual(ruleIds(moved.diagnostics, "warning"), ["UI_NOT_ACTIVATED"]);
          await rm(path.join(root, "contracts/ui"), { recursive: true });
          const lost = await prepare(root);
          assert.deepEqual(ruleIds(lost.diagnostics), ["UI_URI_UNRESOLVED"]);
        },
      );
    });

    describe("review freeze (L3)", () => {
      it(
        "L3: freeze records the draft identity; while frozen, prepare reproduces " +
          "the same bytes",
        async () => {
          const { draft } = await prepare(root);
          const result = await freeze(root, V, at);
          assert.equal(result.outcome, "done");
          assert.equal(readFreezeState(root).active?.contentSha256, draft!.contentSha256);
          assert.equal((await freeze(root, V, at)).outcome, "unchanged");
          const again = await prepare(root);
          assert.deepEqual(ruleIds(again.diagnostics), []);
          assert.equal(again.outcome, "unchanged");
        },
      );

      it("L3: while frozen, prepare refuses a changed contract and writes nothing", async () => {
        const { draft } = await prepare(root);
        await freeze(root, V, at);
        await changeContract(root);
        const result = await prepare(root);
        assert.deepEqual(ruleIds(result.diagnostics), ["FROZEN_DRAFT_CHANGED"]);
        assert.equal(
          sha256Hex(await readFile(path.join(root, DRAFT, "SHA256SUMS"))),
          draft!.contentSha256,
        );
      });

      it(
        "L3: the server start check refuses a drifted contract unless explicitly " + "overridden",
        async () => {
          assert.equal(checkFrozenContract(root).ok, true, "nothing frozen");
          await prepare(root);
          await freeze(root, V, at);
          assert.deepEqual(checkFrozenContract(root), {
            ok: true,
            message: `contract matches frozen ${V}`,
            frozenVersion: V,
          });
          await changeContract(root);
          const refused = checkFrozenContract(root);
          assert.equal(refused.ok, false);
          assert.match(
            refused.message,
            /differs from the contract frozen for review in 1\.1\.3.*refusing to start/,
          );
          const overridden = checkFrozenContract(root, { allowDrift: true });
          assert.equal(overridden.ok, true);
          assert.match(overridden.message, /explicitly overridden/);
        },
      );

      it(
        "L3: freeze refuses a missing draft, a corrupted draft, a stale draft, a " +
          "second frozen version and a published version",
        async () => {
          assert.deepEqual(ruleIds((await freeze(root, V, at)).diagnostics), ["DRAFT_MISSING"]);
          await prepare(root);
          const tools = path.join(root, DRAFT, "package/tools.json");
          const original = await readFile(tools);
          await writeFile(tools, "[]\n");
          assert.deepEqual(ruleIds((await freeze(root, V, at)).diagnostics), ["DRAFT_CORRUPT"]);
          await writeFile(tools, original);
          await changeContract(root);
          assert.deepEqual(ruleIds((await freeze(root, V, at)).diagnostics), ["DRAFT_STALE"]);
          await prepare(root);
          assert.equal((await freeze(root, V, at)).outcome, "done");
          await bumpVersion(root, "1.1.4");
          await prepare(root);
          assert.deepEqual(ruleIds((await freeze(root, "1.1.4", at)).diagnostics), [
            "FREEZE_ALREADY_ACTIVE",
          ]);
          await recordPublished(root, V, {
            publishedAt: "2026-11-30",
            now: at,
            withoutLiveEvidence: noLiveServer,
          });
          // 1.1.3's draft is still on disk, but it is published now.
          await bumpVersion(root, V);
          assert.deepEqual(ruleIds((await freeze(root, V, at)).diagnostics), [
            "VERSION_ALREADY_PUBLISHED",
          ]);
        },
      );

      it("L3: unfreeze needs the frozen version and keeps its reason in the history", async () => {
        assert.deepEqual(ruleIds((await unfreeze(root, V, "review rejected", at)).diagnostics), [
          "NOT_FROZEN",
        ]);
        await prepare(root);
        await freeze(root, V, at);
        assert.deepEqual(
          ruleIds((await unfreeze(root, "1.1.4", "wrong version", at)).diagnostics),
          ["NOT_FROZEN"],
        );
        assert.equal((await unfreeze(root, V, "review rejected: screenshots", at)).outcome, "done");
        const state = readFreezeState(root);
        assert.equal(state.active, null);
        assert.deepEqual(
          state.history.map((h) => [h.action, h.version, h.reason]),
          [
            ["freeze", V, undefined],
            ["unfreeze", V, "review rejected: screenshots"],
          ],
        );
        await changeContract(root);
        assert.deepEqual(
          ruleIds((await prepare(root)).diagnostics),
          [],
          "after unfreeze the draft may change again",
        );
      });
    });

    describe("record-published (L4, L10)", () => {
      it(
        "L4: copies the frozen draft, retains its UI bytes, appends the index and " +
          "ends the freeze",
        async () => {
          const { draft } = await prepare(root);
          await freeze(root, V, at);
          const result = await recordPublished(root, V, {
            publishedAt: "2026-11-30",
            now: at,
            withoutLiveEvidence: noLiveServer,
          });
          assert.deepEqual(ruleIds(result.diagnostics), []);
          assert.equal(result.outcome, "done");
          assert.equal(
            sha256Hex(await readFile(path.join(root, PUBLISHED, "SHA256SUMS"))),
            draft!.contentSha256,
          );
          assert.ok(
            (await readFile(path.join(root, PUBLISHED, "contract.snapshot.json"))).length > 0,
          );
          const index = await readReleaseIndex(root);
          assert.deepEqual(
            index.releases.map((r) => [
              r.version,
              r.publishedAt,
              r.contentSha256,
              r.snapshotSha256,
              r.linePolicyRevision,
            ]),
            [[V, "2026-11-30", draft!.contentSha256, draft!.snapshotSha256, draft!.policyRevision]],
          );
          assert.deepEqual(index.releases[0].archives, {
            "plugin-install-bundle.tar": draft!.archives.tar,
            "plugin-install-bundle.tar.gz": draft!.archives.tarGz,
            "directory-submission.zip": draft!.archives.zip,
          });
          assert.deepEqual(index.releases[0].ui, draft!.ui);
          for (const uri of Object.values(draft!.ui)) {
            const retained = await readFile(
              path.join(root, projectLayout.uiStore, uri.slice("ui://".length)),
            );
            assert.equal(`sha256-${sha256Hex(retained)}`, uri.split("/")[5]);
          }
          assert.equal(readFreezeState(root).active, null);
          assert.deepEqual(ruleIds(await verifyRelease(root)), []);
        },
      );

      it(
        "L4: recording the same bytes again is a no-op; the index is not appended " + "twice",
        async () => {
          await publish(root);
          const indexBefore = await readFile(path.join(root, projectLayout.releaseIndex));
          const again = await recordPublished(root, V, {
            publishedAt: "2026-12-01",
            now: at,
            withoutLiveEvidence: noLiveServer,
          });
          assert.equal(again.outcome, "unchanged");
          assert.deepEqual(
            await readFile(path.join(root, projectLayout.releaseIndex)),
            indexBefore,
          );
        },
      );

      it(
        "L4: refuses a draft that is not frozen, and one whose bytes changed " + "after the freeze",
        async () => {
          await prepare(root);
          assert.deepEqual(ruleIds((await recordPublished(root, V)).diagnostics), ["NOT_FROZEN"]);
          await freeze(root, V, at);
          // A consistent rewrite of the draft (files and SHA256SUMS) is still not what was frozen.
          const sumsFile = path.join(root, DRAFT, "SHA256SUMS");
          const readme = "package/skills/skillpilot-coach/references/flow.md";
          await writeFile(path.join(root, DRAFT, readme), "edited after freeze\n");
          assert.deepEqual(ruleIds((await recordPublished(root, V)).diagnostics), [
            "DRAFT_CORRUPT",
          ]);
          const sums = (await readFile(sumsFile, "utf8")).replace(
            /^[0-9a-f]{64}(?= {2}package\/skills\/skillpilot-coach\/references\/flow\.md$)/m,
            sha256Hex("edited after freeze\n"),
          );
          await writeFile(sumsFile, sums);
          assert.deepEqual(ruleIds((await recordPublished(root, V)).diagnostics), [
            "FROZEN_DRAFT_MODIFIED",
          ]);
          assert.equal(
            await readdir(path.join(root, "contracts/published")).catch(() => "absent"),
            "absent",
          );
        },
      );

      it(
        "§10.2: refuses without a passing verify --live recorded for the frozen contract " +
          "(LIVE_EVIDENCE_MISSING, nothing written), also when the run judged another contract; " +
          "the matching run is kept in the index entry",
        async () => {
          const { draft } = await prepare(root);
          const frozen = await freeze(root, V, at);
          assert.deepEqual(ruleIds(frozen.diagnostics, "warning"), ["LIVE_EVIDENCE_PENDING"]);
          const run = {
            kind: "verified" as const,
            verdict: "LIVE_SERVER_SERVES" as const,
            serverOrigin: "https://coach.example.com",
            checkedAt: "2026-11-29T10:00:00.000Z",
            snapshotSha256: "0".repeat(64),
            packageVersion: V,
            holders: [],
          };
          for (const evidence of [undefined, run]) {
            if (evidence) await appendLiveEvidence(root, evidence);
            const before = await treeDigest(root);
            const refused = await recordPublished(root, V, { publishedAt: "2026-11-30", now: at });
            assert.deepEqual(ruleIds(refused.diagnostics), ["LIVE_EVIDENCE_MISSING"]);
            assert.match(refused.diagnostics[0].message, /verify --live URL/);
            assert.equal(await treeDigest(root), before, "a refusal writes nothing");
          }
          const matching = { ...run, snapshotSha256: draft!.snapshotSha256 };
          await appendLiveEvidence(root, matching);
          const result = await recordPublished(root, V, { publishedAt: "2026-11-30", now: at });
          assert.equal(result.outcome, "done", JSON.stringify(result.diagnostics));
          assert.deepEqual(result.diagnostics, []);
          assert.match(result.message!, /https:\/\/coach\.example\.com served its contract/);
          assert.deepEqual((await readReleaseIndex(root)).releases[0].liveEvidence, {
            kind: "verified",
            verdict: "LIVE_SERVER_SERVES",
            serverOrigin: "https://coach.example.com",
            checkedAt: "2026-11-29T10:00:00.000Z",
            snapshotSha256: draft!.snapshotSha256,
          });
          assert.deepEqual(ruleIds(await verifyRelease(root)), []);
        },
      );

      it("§10.2: --without-live-evidence records the reason in the index entry and reports it", async () => {
        await prepare(root);
        await freeze(root, V, at);
        const result = await recordPublished(root, V, {
          publishedAt: "2026-11-30",
          now: at,
          withoutLiveEvidence: "  no reachable staging server  ",
        });
        assert.equal(result.outcome, "done");
        assert.deepEqual(ruleIds(result.diagnostics, "warning"), ["LIVE_EVIDENCE_WAIVED"]);
        assert.match(result.diagnostics[0].message, /: no reachable staging server$/);
        assert.deepEqual((await readReleaseIndex(root)).releases[0].liveEvidence, {
          kind: "waived",
          reason: "no reachable staging server",
        });
      });

      it("L4: refuses to overwrite a published version that has other bytes", async () => {
        await publish(root);
        await writeFile(path.join(root, PUBLISHED, "contract.snapshot.json"), "{}\n");
        const result = await recordPublished(root, V);
        assert.deepEqual(ruleIds(result.diagnostics), ["PUBLISHED_EXISTS"]);
        assert.equal(
          await readFile(path.join(root, PUBLISHED, "contract.snapshot.json"), "utf8"),
          "{}\n",
          "left as found for verify to report",
        );
      });

      it(
        "L4: an interrupted run (folder copied, index not yet appended) completes " +
          "only when the folder is this very draft",
        async () => {
          await prepare(root);
          await freeze(root, V, at);
          await mkdir(path.dirname(path.join(root, PUBLISHED)), { recursive: true });
          await cp(path.join(root, DRAFT), path.join(root, PUBLISHED), { recursive: true });
          await writeFile(path.join(root, PUBLISHED, "directory-submission.zip"), "other bytes");
          assert.deepEqual(ruleIds((await recordPublished(root, V)).diagnostics), [
            "PUBLISHED_EXISTS",
          ]);
          await rm(path.join(root, PUBLISHED), { recursive: true });
          await cp(path.join(root, DRAFT), path.join(root, PUBLISHED), { recursive: true });
          assert.equal(
            (
              await recordPublished(root, V, {
                publishedAt: "2026-11-30",
                withoutLiveEvidence: noLiveServer,
              })
            ).outcome,
            "done",
          );
          assert.deepEqual(
            (await readReleaseIndex(root)).releases.map((r) => r.version),
            [V],
          );
          assert.deepEqual(ruleIds(await verifyRelease(root)), []);
        },
      );

      it("L4: refuses a version that is not above every published one", async () => {
        await publish(root);
        await bumpVersion(root, "1.1.2");
        assert.deepEqual(ruleIds((await prepare(root)).diagnostics), []);
        await freeze(root, "1.1.2", at);
        assert.deepEqual(ruleIds((await recordPublished(root, "1.1.2")).diagnostics), [
          "VERSION_NOT_NEWER",
        ]);
      });

      it("L4: refuses a version without a draft", async () => {
        assert.deepEqual(ruleIds((await recordPublished(root, "2.0.0")).diagnostics), [
          "DRAFT_MISSING",
        ]);
      });
    });

    describe("verify (L4, L5, L10, L12)", () => {
      it("L4: a tampered published file fails verify", async () => {
        await publish(root);
        await appendFile(path.join(root, PUBLISHED, "package/tools.json"), " ");
        const ids = ruleIds(await verifyRelease(root));
        assert.ok(ids.includes("PUBLISHED_TAMPERED"), ids.join());
        assert.ok(
          ids.includes("BUNDLE_NOT_REPRODUCIBLE"),
          "the archives no longer rebuild from the tampered tree",
        );
      });

      it("L4: a replaced archive and an unindexed published folder fail verify", async () => {
        await publish(root);
        await writeFile(path.join(root, PUBLISHED, "directory-submission.zip"), "not a zip");
        assert.ok(ruleIds(await verifyRelease(root)).includes("PUBLISHED_TAMPERED"));
        await rm(path.join(root, projectLayout.releaseIndex));
        assert.deepEqual(ruleIds(await verifyRelease(root)), [
          "LINE_PUBLICATION_UNRECORDED", // the line record-published moved claims a release
          "PUBLISHED_UNINDEXED",
        ]);
      });

      it("L4: an index whose recorded hash was edited fails verify", async () => {
        await publish(root);
        await editJson(root, projectLayout.releaseIndex, (doc) => {
          (doc.releases as { snapshotSha256: string }[])[0].snapshotSha256 = "0".repeat(64);
        });
        // The contract itself did not change: the published snapshot still equals the generated
        // one (up to the line's policy axes), so only the index is at fault.
        assert.deepEqual(ruleIds(await verifyRelease(root)), ["PUBLISHED_INDEX_MISMATCH"]);
        await rm(path.join(root, PUBLISHED), { recursive: true });
        assert.deepEqual(ruleIds(await verifyRelease(root)), ["PUBLISHED_MISSING"]);
      });

      it(
        "L10: every published UI URI keeps resolving to identical bytes, even " +
          "after ui/ changed and was activated",
        async () => {
          await publish(root);
          const published = (await readReleaseIndex(root)).releases[0].ui["goal-visualization"];
          await appendFile(
            path.join(root, "ui/goal-visualization/index.html"),
            "<!-- a compatible fix -->\n",
          );
          await activateUi(root, await buildAllUi(root, 1));
          assert.deepEqual(
            ruleIds(await verifyRelease(root)),
            ["MANIFEST_VERSION_REUSED"],
            "a new UI URI is a contract change: PATCH bump (L6)",
          );
          await bumpVersion(root, "1.1.4");
          assert.deepEqual(ruleIds(await verifyRelease(root)), []);
          const retained = path.join(root, projectLayout.uiStore, published.slice("ui://".length));
          await appendFile(retained, "tampered");
          assert.deepEqual(ruleIds(await verifyRelease(root)), ["UI_BYTES_CHANGED"]);
          await rm(retained);
          assert.deepEqual(ruleIds(await verifyRelease(root)), ["UI_NOT_RETAINED"]);
        },
      );

      it(
        "L3: verify reports a frozen draft that was modified and a contract that " +
          "drifted while frozen",
        async () => {
          await prepare(root);
          await freeze(root, V, at);
          assert.deepEqual(ruleIds(await verifyRelease(root)), []);
          await changeContract(root);
          // Regenerated code is a server build change too (the generated layer).
          assert.deepEqual(ruleIds(await verifyRelease(root)), [
            "CONTRACT_DRIFTED_WHILE_FROZEN",
            "SERVER_BUILD_DRIFTED_WHILE_FROZEN",
          ]);
          await rm(path.join(root, DRAFT, "directory-submission.zip"));
          assert.deepEqual(ruleIds(await verifyRelease(root)), [
            "CONTRACT_DRIFTED_WHILE_FROZEN",
            "FROZEN_DRAFT_MODIFIED",
            "SERVER_BUILD_DRIFTED_WHILE_FROZEN",
          ]);
        },
      );

      it(
        "L4: a published copy of the project verifies in another checkout " +
          "location (paths are relative)",
        async () => {
          await publish(root);
          const moved = `${root}-moved`;
          await mkdir(moved);
          await cp(root, moved, { recursive: true });
          try {
            assert.deepEqual(ruleIds(await verifyRelease(moved)), []);
          } finally {
            await removeProject(moved);
          }
        },
      );
    });
  },
);

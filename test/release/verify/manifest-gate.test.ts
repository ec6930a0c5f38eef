import assert from "node:assert/strict";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { freeze } from "../../../release/freeze/freeze.js";
import { checkLine } from "../../../release/line/check-line.js";
import { draftDir } from "../../../contract-model/project/project-layout.js";
import { prepare } from "../../../release/prepare/prepare.js";
import { recordPublished } from "../../../release/publish/record-published.js";
import { verifyRelease } from "../../../release/verify/verify.js";
import {
  editJson,
  noLiveServer,
  regenerate,
  ruleIds,
  useProjectCopies,
} from "../support/temp-project.js";

describe("release/verify: manifest gate (L12.1) and contract line (L11)", function () {
  this.timeout(60000);
  const project = useProjectCopies();
  let root: string;
  beforeEach(() => {
    root = project();
  });

  const editPlugin = (edit: (doc: Record<string, unknown>) => void) =>
    editJson(root, "schemas/plugin.json", edit);

  it("L12.1: the project as it is passes the gate", async () => {
    assert.deepEqual(ruleIds(await verifyRelease(root)), []);
  });

  it(
    "L1, L12.1: a display name over 30 characters fails, and so does one that " +
      "differs from the line",
    async () => {
      await editPlugin((d) => (d.displayName = "SkillPilot Coach for Everyone!!"));
      const diagnostics = await verifyRelease(root);
      assert.deepEqual(ruleIds(diagnostics), ["MANIFEST_DISPLAY_NAME"]);
      assert.ok(
        diagnostics.some(
          (d) => /31 characters/.test(d.message) && d.location.file === "schemas/plugin.json",
        ),
      );
      assert.ok(diagnostics.some((d) => d.location.file === "release/line.json"));
    },
  );

  it(
    "L1, L12.1: MCP URL, OAuth resource, widget origin and metadata URL must " + "share one origin",
    async () => {
      await editPlugin((d) => (d.widgetOrigin = "https://widgets.skillpilot.com"));
      assert.deepEqual(ruleIds(await verifyRelease(root)), ["MANIFEST_ORIGIN"]);
      await editPlugin((d) => {
        d.widgetOrigin = "https://mcp-openai.skillpilot.com";
        d.oauthResource = "https://mcp-openai.skillpilot.com/other";
      });
      assert.deepEqual(ruleIds(await verifyRelease(root)), ["MANIFEST_ORIGIN"], "no dual audience");
      await editPlugin((d) => {
        d.oauthResource = d.mcpUrl;
        d.protectedResourceMetadataUrl =
          "https://auth.skillpilot.com/.well-known/oauth-protected-resource/mcp";
      });
      assert.deepEqual(ruleIds(await verifyRelease(root)), ["MANIFEST_ORIGIN"]);
    },
  );

  it(
    "L1, L12.1: the package name and origin are permanent once published; " +
      "SemVer never goes below the index",
    async () => {
      assert.deepEqual(ruleIds((await prepare(root)).diagnostics), []);
      await freeze(root, "1.1.3");
      assert.equal(
        (
          await recordPublished(root, "1.1.3", {
            publishedAt: "2026-11-30",
            withoutLiveEvidence: noLiveServer,
          })
        ).outcome,
        "done",
      );
      await editPlugin((d) => {
        d.packageVersion = "1.1.2";
      });
      await regenerate(root);
      assert.ok(ruleIds(await verifyRelease(root)).includes("MANIFEST_SEMVER"));
      await editPlugin((d) => {
        d.packageVersion = "1.2.0";
        d.mcpUrl = "https://coach.skillpilot.com/mcp";
        d.oauthResource = "https://coach.skillpilot.com/mcp";
        d.widgetOrigin = "https://coach.skillpilot.com";
        d.protectedResourceMetadataUrl =
          "https://coach.skillpilot.com/.well-known/oauth-protected-resource/mcp";
      });
      assert.deepEqual(ruleIds(await verifyRelease(root)), ["MANIFEST_ORIGIN"]);
      await editPlugin((d) => (d.packageName = "skillpilot-coach-v2"));
      assert.ok(ruleIds(await verifyRelease(root)).includes("MANIFEST_PACKAGE_NAME"));
    },
  );

  it("L3, L12.1: a draft folder whose manifest carries another version fails", async () => {
    await prepare(root);
    const from = path.join(root, draftDir("skillpilot-coach", "1.1.3"));
    const to = path.join(root, draftDir("skillpilot-coach", "1.1.4"));
    await mkdir(path.dirname(to), { recursive: true });
    await rename(from, to);
    const diagnostics = await verifyRelease(root);
    assert.deepEqual(ruleIds(diagnostics), ["MANIFEST_SEMVER"]);
    assert.match(diagnostics[0].message, /carries 1\.1\.3, the folder 1\.1\.4/);
  });

  it(
    "L11: WARN with a successor that is a published line on the first-party allowlist " +
      "passes; unpublished or off the allowlist it fails",
    async () => {
      const warn = (launchUrl: string) =>
        editJson(root, "release/line.json", (d) => {
          d.newSessionPolicy = "WARN";
          d.successor = { contractMajor: 2, launchUrl };
        });
      await warn("https://skillpilot.com/coach/v2/start");
      assert.deepEqual(ruleIds((await checkLine(root)).diagnostics), [
        "LINE_SUCCESSOR_NOT_PUBLISHED",
      ]);
      // Contract major 2 published (the index entry is all checkLine reads of it).
      await mkdir(path.join(root, "contracts"), { recursive: true });
      await writeFile(
        path.join(root, "contracts/release-index.json"),
        JSON.stringify({
          indexFormat: "skillpilot-release-index/1",
          releases: [{ version: "2.0.0", contractMajor: 2, linePolicyRevision: 1, ui: {} }],
        }),
      );
      assert.deepEqual(ruleIds((await checkLine(root)).diagnostics), []);
      await warn("https://skillpilot.example.net/start");
      const off = (await checkLine(root)).diagnostics;
      assert.deepEqual(ruleIds(off), ["LINE_SUCCESSOR_NOT_ALLOWLISTED"]);
      assert.equal(off[0].location.pointer, "/successor/launchUrl");
      assert.ok(off[0].location.line! > 1, "located in release/line.json");
      await warn("https://user:pw@skillpilot.com/start");
      assert.deepEqual(ruleIds((await checkLine(root)).diagnostics), [
        "LINE_SUCCESSOR_NOT_ALLOWLISTED",
      ]);
    },
  );

  it(
    "L11: WARN without a successor, and RETIRED without UNPUBLISHED + BLOCK, " +
      "fail contract-line/v1",
    async () => {
      await editJson(root, "release/line.json", (d) => (d.newSessionPolicy = "WARN"));
      assert.deepEqual(ruleIds((await checkLine(root)).diagnostics), ["LINE_INVALID"]);
      await editJson(root, "release/line.json", (d) => {
        d.newSessionPolicy = "ALLOW";
        d.supportLifecycle = "RETIRED";
      });
      assert.deepEqual(ruleIds((await checkLine(root)).diagnostics), ["LINE_INVALID"]);
      await editJson(root, "release/line.json", (d) => {
        d.newSessionPolicy = "BLOCK";
        d.publicationStatus = "UNPUBLISHED";
      });
      assert.deepEqual(ruleIds((await checkLine(root)).diagnostics), []);
    },
  );

  it("L11: a successor must be a newer contract major", async () => {
    await editJson(
      root,
      "release/line.json",
      (d) => (d.successor = { contractMajor: 1, launchUrl: "https://skillpilot.com/start" }),
    );
    assert.deepEqual(ruleIds((await checkLine(root)).diagnostics), ["LINE_SUCCESSOR_NOT_NEWER"]);
  });
});

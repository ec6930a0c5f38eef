import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { resolveImportUi } from "../../../release/import/import-ui.js";
import type { LocatedRelease } from "../../../release/import/locate-release.js";

const BUNDLE = "skillpilot-coach-1.1.2.tgz";
const page = Buffer.from("<!doctype html><title>goal</title>\n");
const addressed = `ui://skillpilot/coach/1/sha256-${createHash("sha256").update(page).digest("hex")}/index.html`;

/** An imported release of one tool bound (`_meta`) to a UI page, its bundle holding that page. */
const release = (meta: Record<string, unknown>): LocatedRelease => ({
  manifestPath: "package/plugin.json",
  toolsPath: "package/tools.json",
  packageName: "skillpilot-coach",
  version: "1.1.2",
  ui: [],
  tools: [{ name: "show_goal", _meta: meta }],
});
const files = [{ path: "package/ui/goal/index.html", data: page }];

describe("release/import/import-ui.ts: the UI pages an imported release binds (L10)", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "sp-import-ui-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  describe("IMPORT_UI_UNADDRESSED", () => {
    it("L10: warns on a bound UI URI that is not content-addressed, and retains nothing for it", async () => {
      for (const meta of [
        { ui: { resourceUri: "ui://skillpilot/coach/goal.html" } },
        { "openai/outputTemplate": "ui://skillpilot/coach/goal.html" },
      ]) {
        const diagnostics: Diagnostic[] = [];
        const pages = await resolveImportUi(root, BUNDLE, release(meta), files, diagnostics);
        assert.deepEqual(pages, []);
        assert.deepEqual(diagnostics, [
          {
            ruleId: "IMPORT_UI_UNADDRESSED",
            severity: "warning",
            message:
              "ui://skillpilot/coach/goal.html (show_goal) is not a content-addressed UI URI; " +
              "its bytes are not retained",
            location: { file: BUNDLE },
          },
        ]);
      }
    });

    it("L10: stays quiet on a content-addressed URI, whose page it retains from the bundle", async () => {
      const diagnostics: Diagnostic[] = [];
      const pages = await resolveImportUi(
        root,
        BUNDLE,
        release({ ui: { resourceUri: addressed } }),
        files,
        diagnostics,
      );
      assert.deepEqual(diagnostics, []);
      assert.deepEqual(pages, [{ name: "goal", uri: addressed, html: page }]);
    });
  });
});

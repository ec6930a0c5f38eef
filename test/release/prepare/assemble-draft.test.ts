import assert from "node:assert/strict";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { assembleDraft } from "../../../release/prepare/assemble-draft.js";
import { regenerate, ruleIds, useProjectCopies } from "../support/temp-project.js";

const findings = (diagnostics: readonly Diagnostic[], rule: string) =>
  diagnostics.filter((d) => d.ruleId === rule);

/** Put `tag` into ui/memory-practice/index.html just before `</head>`. */
async function addToPage(root: string, tag: string): Promise<void> {
  const page = path.join(root, "ui/memory-practice/index.html");
  await writeFile(page, (await readFile(page, "utf8")).replace("</head>", `${tag}\n</head>`));
}

describe("release/prepare/assemble-draft.ts: what a draft is built from (L7, L10)", function () {
  this.timeout(180_000);
  const root = useProjectCopies();

  describe("SKILLS_MISSING", () => {
    it("L7: warns when the project has no skills/ tree, and drafts the package without skills", async () => {
      await rm(path.join(root(), "skills"), { recursive: true });
      await regenerate(root()); // the snapshot records the skills tree's hashes
      const { draft, diagnostics } = await assembleDraft(root());
      assert.deepEqual(
        findings(diagnostics, "SKILLS_MISSING").map((d) => [d.severity, d.location, d.message]),
        [
          [
            "warning",
            { file: "skills" },
            "skills/ does not exist; the package ships without skills",
          ],
        ],
      );
      assert.deepEqual(ruleIds(diagnostics), [], JSON.stringify(diagnostics));
      assert.ok(draft, "a warning does not stop the draft");
      assert.ok(!draft.files.some((f) => f.path.includes("/skills/")), "no skills are packaged");
    });

    it("L7: stays quiet on a project with its skills tree, which the package ships", async () => {
      const { draft, diagnostics } = await assembleDraft(root());
      assert.deepEqual(findings(diagnostics, "SKILLS_MISSING"), []);
      assert.ok(draft?.files.some((f) => f.path.endsWith("/skills/skillpilot-coach/SKILL.md")));
    });
  });

  describe("UI_BUILD_FAILED", () => {
    it("L10: fails a page that loads a remote script (a UI artifact must be self-contained)", async () => {
      await addToPage(root(), '<script src="https://cdn.example.com/widget.js"></script>');
      const { draft, diagnostics } = await assembleDraft(root());
      const failed = findings(diagnostics, "UI_BUILD_FAILED");
      assert.deepEqual(
        failed.map((d) => [d.severity, d.location]),
        [["error", { file: "ui" }]],
      );
      assert.match(
        failed[0].message,
        /ui\/memory-practice\/index\.html: https:\/\/cdn\.example\.com\/widget\.js is not local; a UI artifact must be self-contained$/,
      );
      assert.equal(draft, undefined);
    });

    it("L10: stays quiet on a local script, which the build inlines (the page then awaits activation)", async () => {
      await writeFile(path.join(root(), "ui/memory-practice/widget.js"), "void 0;\n");
      await addToPage(root(), '<script src="widget.js"></script>');
      const { diagnostics } = await assembleDraft(root());
      assert.deepEqual(findings(diagnostics, "UI_BUILD_FAILED"), []);
      assert.deepEqual(ruleIds(diagnostics, "warning"), ["UI_NOT_ACTIVATED"]);
    });
  });
});

import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sha256Hex } from "../../../contract-model/file-tree/sha256-manifest.js";
import { activateUi } from "../../../release/ui/activate-ui.js";
import { buildAllUi, buildUiArtifact, UiBuildError } from "../../../release/ui/build-ui.js";
import { retainUiArtifact } from "../../../contract-model/ui/ui-store.js";
import { listServableUi, resolveUiResource } from "../../../release/ui/resolve-ui.js";
import { parseUiUri, retainedUiPath, uiUri } from "../../../contract-model/ui/ui-uri.js";
import { ruleIds, useProjectCopies } from "../support/temp-project.js";

describe("release/ui: content-addressed UI artifacts (L10)", function () {
  this.timeout(60000);
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), "sp-ui-"));
  });
  after(() => rm(work, { recursive: true, force: true }));

  async function page(name: string, files: Record<string, string>): Promise<string> {
    for (const [rel, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(work, "ui", name, rel)), { recursive: true });
      await writeFile(path.join(work, "ui", name, rel), text);
    }
    return path.join(work, "ui");
  }

  it(
    "L10: a self-contained page is its own artifact; the URI carries the sha256 " + "of its bytes",
    async () => {
      const html = "<!doctype html><html><body><script>1</script></body></html>\n";
      const uiDir = await page("plain", { "index.html": html });
      const a = await buildUiArtifact(uiDir, "plain", 1);
      assert.equal(a.html.toString(), html);
      assert.equal(a.uri, `ui://skillpilot/coach/1/sha256-${sha256Hex(html)}/index.html`);
      assert.deepEqual(parseUiUri(a.uri), { contractMajor: 1, sha256: sha256Hex(html) });
      assert.equal(
        retainedUiPath(a.uri),
        `contracts/ui/skillpilot/coach/1/sha256-${sha256Hex(html)}/index.html`,
      );
    },
  );

  it(
    "L10: local scripts and stylesheets are inlined into one file; a change to " +
      "them changes the URI",
    async () => {
      const uiDir = await page("split", {
        "index.html":
          '<html><head><link rel="stylesheet" ' +
          'href="style.css"></head><body><script ' +
          'src="app.js"></script></body></html>\n',
        "style.css": "body{color:red}",
        "app.js": 'console.log("</script>")',
      });
      const a = await buildUiArtifact(uiDir, "split", 1);
      const text = a.html.toString();
      assert.ok(text.includes("<style>\nbody{color:red}\n</style>"));
      assert.ok(
        text.includes('<script>\nconsole.log("<\\/script>")\n</script>'),
        "inlined code cannot close its element early",
      );
      assert.ok(!/src=|href=/.test(text));
      await writeFile(path.join(uiDir, "split", "app.js"), "console.log(2)");
      assert.notEqual((await buildUiArtifact(uiDir, "split", 1)).uri, a.uri);
    },
  );

  it("L10: a remote reference or a path outside the page folder is refused", async () => {
    const uiDir = await page("remote", {
      "index.html": '<script src="https://cdn.example.com/x.js"></script>',
    });
    await assert.rejects(
      buildUiArtifact(uiDir, "remote", 1),
      (e: unknown) => e instanceof UiBuildError && /not local/.test(e.message),
    );
    await page("escape", { "index.html": '<script src="../plain/index.html"></script>' });
    await assert.rejects(buildUiArtifact(uiDir, "escape", 1), /points outside/);
  });

  it(
    "L10: the retained store only accepts bytes that hash to the address, and " +
      "never rewrites them",
    async () => {
      const html = Buffer.from("<p>v1</p>\n");
      const uri = uiUri(1, sha256Hex(html));
      assert.equal(await retainUiArtifact(work, uri, html), "written");
      assert.equal(await retainUiArtifact(work, uri, html), "unchanged");
      await assert.rejects(retainUiArtifact(work, uri, Buffer.from("<p>v2</p>\n")), /hash to/);
      await writeFile(path.join(work, retainedUiPath(uri)!), "altered");
      await assert.rejects(retainUiArtifact(work, uri, html), /other bytes/);
    },
  );

  describe("in a project copy", () => {
    const project = useProjectCopies();
    let root: string;
    beforeEach(() => {
      root = project();
    });

    it(
      "L10: resolveUiResource serves active pages from ui/ and published pages " +
        "from the retained store, verified by hash",
      async () => {
        // A store lost from this copy: the active page is then found only in ui/.
        await rm(path.join(root, "contracts/ui"), { recursive: true, force: true });
        const [first] = await buildAllUi(root, 1);
        assert.deepEqual(await resolveUiResource(root, first.uri), {
          html: first.html,
          from: "source",
        });
        await retainUiArtifact(root, first.uri, first.html);
        await writeFile(path.join(root, "ui", first.name, "index.html"), "<p>new page</p>\n");
        assert.deepEqual(await resolveUiResource(root, first.uri), {
          html: first.html,
          from: "retained",
        });
        assert.equal(await resolveUiResource(root, uiUri(1, "0".repeat(64))), undefined);
        assert.equal(await resolveUiResource(root, "ui://elsewhere/x.html"), undefined);
      },
    );

    it("L10: activation retains the activated pages in the store at once", async () => {
      await writeFile(
        path.join(root, "ui/goal-visualization/index.html"),
        "<!doctype html><p>goal v3</p>\n",
      );
      const built = await buildAllUi(root, 1);
      await activateUi(root, built);
      for (const a of built)
        assert.ok(
          (await readFile(path.join(root, retainedUiPath(a.uri)!))).equals(a.html),
          `${a.name} retained`,
        );
    });

    it(
      "L10: listServableUi names the active URIs and every retained one, so old " +
        "URIs stay servable after a new activation",
      async () => {
        const before = await buildAllUi(root, 1);
        for (const a of before) await retainUiArtifact(root, a.uri, a.html);
        await writeFile(
          path.join(root, "ui/goal-visualization/index.html"),
          "<!doctype html><p>goal v2</p>\n",
        );
        await activateUi(root, await buildAllUi(root, 1));
        const servable = await listServableUi(root);
        const old = before.find((a) => a.name === "goal-visualization")!;
        const line = JSON.parse(await readFile(path.join(root, "release/line.json"), "utf8"));
        assert.deepEqual(
          servable,
          [
            { uri: old.uri },
            { uri: line.activeUi["goal-visualization"], activeAs: "goal-visualization" },
            { uri: line.activeUi["memory-practice"], activeAs: "memory-practice" },
          ].sort((a, b) => (a.uri < b.uri ? -1 : 1)),
        );
        for (const { uri } of servable)
          assert.equal(
            `sha256-${sha256Hex((await resolveUiResource(root, uri))!.html)}`,
            uri.split("/")[5],
          );
      },
    );

    it(
      "L10: ui build --activate rewrites release/line.json activeUi and " +
        "regenerates the descriptors to bind the new URI",
      async () => {
        await writeFile(
          path.join(root, "ui/memory-practice/index.html"),
          "<!doctype html><p>cards v2</p>\n",
        );
        const artifacts = await buildAllUi(root, 1);
        const next = artifacts.find((a) => a.name === "memory-practice")!;
        const result = await activateUi(root, artifacts);
        assert.deepEqual(ruleIds(result.diagnostics), []);
        assert.deepEqual(result.changed, ["memory-practice"]);
        assert.ok(result.regenerated.includes("generated/tools.gen.ts"));
        const line = JSON.parse(await readFile(path.join(root, "release/line.json"), "utf8"));
        assert.equal(line.activeUi["memory-practice"], next.uri);
        assert.equal(line.policyRevision, 3, "other fields are kept");
        const tools = await readFile(path.join(root, "generated/tools.gen.ts"), "utf8");
        assert.ok(tools.includes(next.uri));
        assert.deepEqual(
          (await activateUi(root, artifacts)).changed,
          [],
          "activating again changes nothing",
        );
      },
    );
  });
});

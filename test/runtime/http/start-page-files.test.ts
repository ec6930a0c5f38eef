import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listUiSources } from "../../../release/ui/build-ui.js";
import { loadStartPageFiles, startPageDir } from "../../../runtime/http/start-page-files.js";
import { renderStartPage } from "../../../runtime/http/start-page.js";
import { repoRoot } from "../support/runtime-fixture.js";

const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
const source = path.join(repoRoot, startPageDir);

describe("the start page's files (ui/start-page/)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-start-page-files-"));
    await cp(source, dir, { recursive: true });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("inlines the style and script files, each admitted by its sha256 in the CSP and nothing else", async () => {
    const files = loadStartPageFiles(dir);
    const html = renderStartPage({ lang: "en", launchKeyRequired: false }, files);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    assert.equal(style, `\n${await readFile(path.join(dir, "start-page.css"), "utf8")}`);
    assert.equal(script, `\n${await readFile(path.join(dir, "start-page.js"), "utf8")}`);
    assert.doesNotMatch(html, /start-page\.(css|js)/, "a reference to a file left in the page");
    const csp = files.contentSecurityPolicy;
    assert.ok(csp.includes(`script-src ${hash(script)};`), csp);
    assert.ok(csp.includes(`style-src ${hash(style)};`), csp);
    assert.match(csp, /default-src 'none'/);
  });

  it("takes the page's texts from its language's catalog and changes with the files", async () => {
    const before = loadStartPageFiles(dir);
    await writeFile(path.join(dir, "start-page.js"), "// another script\n");
    const after = loadStartPageFiles(dir);
    assert.notEqual(after.contentSecurityPolicy, before.contentSecurityPolicy);
    const html = renderStartPage({ lang: "de", launchKeyRequired: false }, after);
    assert.match(html, /<script>\n\/\/ another script\n<\/script>/);
    assert.match(html, /<h1>Lernsitzung starten<\/h1>/);
  });

  it("refuses, naming the file, a missing file or markup that does not link its style and script", async () => {
    await rm(path.join(dir, "start-page.css"));
    assert.throws(() => loadStartPageFiles(dir), /start-page\.css is missing/);
    await cp(path.join(source, "start-page.css"), path.join(dir, "start-page.css"));
    const markup = await readFile(path.join(dir, "start-page.html"), "utf8");
    await writeFile(
      path.join(dir, "start-page.html"),
      markup.replace('<script src="start-page.js"></script>', ""),
    );
    assert.throws(() => loadStartPageFiles(dir), /start-page\.html must contain <script src=/);
    await writeFile(path.join(dir, "start-page.html"), markup);
    await writeFile(path.join(dir, "start-page.js"), 'document.write("</script>");\n');
    assert.throws(() => loadStartPageFiles(dir), /must not contain <\/script/);
  });

  it("is no MCP Apps widget: the UI build does not list it", async () => {
    const widgets = await listUiSources(path.join(repoRoot, "ui"));
    assert.ok(widgets.length > 0);
    assert.ok(!widgets.includes("start-page"), widgets.join(", "));
  });
});

import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { changedSinceBuild } from "../../bin/build-freshness.js";
import { toolchainAssetDirs } from "../../contract-model/project/toolchain.js";
import { startPageDir } from "../../runtime/http/start-page-files.js";
import { buildAssets } from "../../tools/build-assets.js";

describe("npm run build copies the toolchain's asset folders into build/", () => {
  let root: string;
  const dir = toolchainAssetDirs[0];
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "skillpilot-build-assets-"));
    await mkdir(path.join(root, dir), { recursive: true });
    await writeFile(path.join(root, dir, "a.js"), "// a\n");
    await writeFile(path.join(root, dir, "b.css"), "p {}\n");
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("includes the start page, which the compiled server reads beside itself", () => {
    assert.ok((toolchainAssetDirs as readonly string[]).includes(startPageDir));
  });

  it("copies each file as it is and replaces the previous copy", async () => {
    await mkdir(path.join(root, "build", dir), { recursive: true });
    await writeFile(path.join(root, "build", dir, "gone.js"), "// deleted from the sources\n");
    assert.deepEqual(await buildAssets(root), [`${dir}/a.js`, `${dir}/b.css`]);
    assert.equal(await readFile(path.join(root, "build", dir, "a.js"), "utf8"), "// a\n");
    await assert.rejects(readFile(path.join(root, "build", dir, "gone.js")), { code: "ENOENT" });
  });

  it("refuses anything but regular files", async () => {
    await symlink(path.join(root, dir, "a.js"), path.join(root, dir, "link.js"));
    await assert.rejects(buildAssets(root), /link\.js: an asset folder holds regular files only/);
  });

  it("start names an asset copy older than its source, and nothing once rebuilt", async () => {
    await mkdir(path.join(root, "build"), { recursive: true });
    await writeFile(path.join(root, "build", ".tsbuildinfo"), "{}");
    await buildAssets(root);
    assert.deepEqual(await changedSinceBuild(root), []);
    await writeFile(path.join(root, dir, "a.js"), "// a, edited\n");
    await writeFile(path.join(root, dir, "c.html"), "<p>new</p>\n");
    assert.deepEqual(await changedSinceBuild(root), [`${dir}/a.js`, `${dir}/c.html`]);
    await buildAssets(root);
    assert.deepEqual(await changedSinceBuild(root), []);
    // An installed package has no sources to compare with.
    await rm(path.join(root, dir), { recursive: true });
    assert.deepEqual(await changedSinceBuild(root), []);
  });
});

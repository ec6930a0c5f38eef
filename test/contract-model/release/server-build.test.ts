import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  describeBuildChanges,
  serverBuildChanges,
  serverBuildIdentity,
} from "../../../contract-model/release/server-build.js";

/** Write files of a small project (posix paths). */
async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
}

const lock = (koa: string, biome: string) =>
  JSON.stringify({
    lockfileVersion: 3,
    packages: {
      "": { name: "x", version: "0.0.0" },
      "node_modules/koa": { version: koa, integrity: `sha512-${koa}` },
      "node_modules/@biomejs/biome": { version: biome, dev: true },
    },
  });

describe("contract-model: server build identity (L3)", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "sp-build-"));
    await write(root, {
      "runtime/server.ts": 'import { a } from "../contract-model/a.js";\nimport "./mcp/b.js";\n',
      "runtime/mcp/b.ts": "export const b = 1;\n",
      "contract-model/a.ts": 'export { c as a } from "./c.js";\n',
      "contract-model/c.ts": "export const c = 1;\n",
      "contract-model/toolchain-only.ts": "export const t = 1;\n",
      "generated/tools.gen.ts": "export const tools = [];\n",
      "curricula/basics.curriculum.json": "{}\n",
      "skills/coach/SKILL.md": "# coach\n",
      "contracts/ui/skillpilot/coach/1/sha256-00/index.html": "<!doctype html>\n",
      "package-lock.json": lock("3.3.0", "2.6.8"),
    });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("hashes the runtime and the modules it imports, not the rest of the toolchain", async () => {
    const build = await serverBuildIdentity(root);
    assert.deepEqual(Object.keys(build.layers.code.files), [
      "contract-model/a.ts",
      "contract-model/c.ts",
      "runtime/mcp/b.ts",
      "runtime/server.ts",
    ]);
    assert.deepEqual(Object.keys(build.layers.dependencies.files), ["node_modules/koa"]);
    await write(root, {
      "contract-model/toolchain-only.ts": "export const t = 2;\n",
      "package-lock.json": lock("3.3.0", "2.7.0"),
    });
    assert.equal((await serverBuildIdentity(root)).sha256, build.sha256);
  });

  it("depends on contents only: not on mtimes, modes or listing order", async () => {
    const build = await serverBuildIdentity(root);
    await chmod(path.join(root, "runtime/server.ts"), 0o600);
    await utimes(path.join(root, "skills/coach/SKILL.md"), new Date(0), new Date(0));
    assert.equal((await serverBuildIdentity(root)).sha256, build.sha256);
  });

  it("names the layers and files that changed", async () => {
    const before = await serverBuildIdentity(root);
    await write(root, {
      "contract-model/c.ts": "export const c = 2;\n",
      "runtime/new.ts": "export {};\n",
      "curricula/basics.curriculum.json": '{"v":2}\n',
      "package-lock.json": lock("3.4.0", "2.6.8"),
    });
    const after = await serverBuildIdentity(root);
    assert.notEqual(after.sha256, before.sha256);
    assert.equal(
      describeBuildChanges(serverBuildChanges(before, after)),
      "code (contract-model/c.ts, runtime/new.ts), curricula (curricula/basics.curriculum.json), " +
        "dependencies (node_modules/koa)",
    );
    assert.deepEqual(serverBuildChanges(after, after), []);
  });
});

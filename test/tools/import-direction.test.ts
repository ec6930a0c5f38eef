import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkImportDirection } from "../../tools/import-direction.js";
import { repoRoot } from "../support/temp-project.js";

/** Run the check over an in-memory tree. */
const check = (tree: Record<string, string>) =>
  checkImportDirection(Object.keys(tree), (f) => tree[f]).map((v) => `${v.file} -> ${v.imports}`);

describe("import direction (the architecture as a check)", () => {
  it("passes on this repository", () => {
    const files = execFileSync("git", ["ls-files", "*.ts", "*.js", "*.mjs"], {
      cwd: repoRoot,
      encoding: "utf8",
    })
      .split("\n")
      .filter((f) => f && !f.startsWith("test/fixtures/"));
    const violations = checkImportDirection(files, (f) =>
      readFileSync(path.join(repoRoot, f), "utf8"),
    );
    assert.deepEqual(violations, []);
  });

  it("refuses the folder imports the architecture forbids", () => {
    assert.deepEqual(
      check({
        "generator/a.ts": 'import { x } from "../runtime/x.js";',
        "runtime/b.ts": 'import type { Y } from "../generator/y.js";',
        "generated/c.gen.ts": 'export { z } from "../contract-model/z.js";',
        "release/d.ts": 'const m = await import("../runtime/server.js");',
        "checks/e.ts": 'import { f } from "../generator/f.js";',
        "json-schema/g.ts": 'import { h } from "../contract-model/h.js";',
      }),
      [
        "generator/a.ts -> runtime/x.js",
        "runtime/b.ts -> generator/y.js",
        "generated/c.gen.ts -> contract-model/z.js",
        "release/d.ts -> runtime/server.js",
        "checks/e.ts -> generator/f.js",
        "json-schema/g.ts -> contract-model/h.js",
      ],
    );
  });

  it("allows the directions the architecture names, and packages anywhere", () => {
    assert.deepEqual(
      check({
        "runtime/mcp/a.ts": 'import { t } from "../../generated/tools.gen.js"; import "ajv";',
        "release/b.ts": 'import { c } from "../checks/diff/run-diff.js";',
        "checks/c.ts": 'import { d } from "../contract-model/contract-doc.js";',
        "bin/d.ts": 'import { e } from "../runtime/server.js";',
        "test/e.ts": 'import { f } from "../generator/generate.js";',
      }),
      [],
    );
  });

  it("keeps runtime layers one-way: value imports upward are refused, shared types are not", () => {
    assert.deepEqual(
      check({
        "runtime/domain/a.ts": 'import { pipeline } from "../mcp/write-pipeline.js";',
        "runtime/store/b.ts": 'import type { LearnerState } from "../domain/learner-state.js";',
        "runtime/mcp/c.ts": 'import { run } from "../domain/write-pipeline.js";',
        "runtime/store/d.ts": 'import { rule } from "../domain/rules.js";',
      }),
      [
        "runtime/domain/a.ts -> runtime/mcp/write-pipeline.js",
        "runtime/store/d.ts -> runtime/domain/rules.js",
      ],
    );
  });

  it("keeps runtime/lanes a leaf: the kernel and generated code only, below auth, config, mcp and http", () => {
    assert.deepEqual(
      check({
        "runtime/lanes/a.ts":
          'import { providerLanes } from "../../generated/identity.gen.js";\n' +
          'import { StartupError } from "../errors.js";\nimport { b } from "./b.js";',
        "runtime/lanes/c.ts": 'import type { AuthSettings } from "../auth/auth-settings.js";',
        "runtime/lanes/d.ts": 'import { isLoopbackHost } from "../config/config.js";',
        "runtime/auth/e.ts": 'import { resolveLanes } from "../lanes/lane-settings.js";',
        "runtime/http/f.ts": 'import { mcpMounts } from "../lanes/mcp-mounts.js";',
        "runtime/config/g.ts": 'import { primaryLaneId } from "../lanes/lane.js";',
      }),
      [
        "runtime/lanes/c.ts -> runtime/auth/auth-settings.js",
        "runtime/lanes/d.ts -> runtime/config/config.js",
      ],
    );
  });
});

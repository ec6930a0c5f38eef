import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkImportDirection, importCircles } from "../../tools/import-direction.js";
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
        "runtime/observability/b.ts":
          'import type { LearnerState } from "../domain/learner-state.js";',
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

  it("lets the store reach the domain only through its ports, and the domain never the store", () => {
    assert.deepEqual(
      checkImportDirection(
        [
          "runtime/store/a.ts",
          "runtime/store/b.ts",
          "runtime/domain/c.ts",
          "runtime/domain/d.ts",
          "runtime/domain/ports/e.ts",
          "runtime/domain/ports/f.ts",
        ],
        (f) =>
          ({
            "runtime/store/a.ts":
              'import { StateVersionMismatch } from "../domain/ports/coach-store.js";',
            "runtime/store/b.ts": 'import type { LearnerState } from "../domain/learner-state.js";',
            "runtime/domain/c.ts": 'import type { SqliteStore } from "../store/sqlite-store.js";',
            "runtime/domain/d.ts": 'import { floorKey } from "./ports/coach-store.js";',
            "runtime/domain/ports/e.ts": 'import { writeHandler } from "../write-pipeline.js";',
            "runtime/domain/ports/f.ts": 'import type { LearnerState } from "../learner-state.js";',
          })[f]!,
      ),
      [
        {
          file: "runtime/store/b.ts",
          imports: "runtime/domain/learner-state.js",
          rule: "runtime/store reaches runtime/domain only through runtime/domain/ports/",
        },
        {
          file: "runtime/domain/c.ts",
          imports: "runtime/store/sqlite-store.js",
          rule: "runtime/domain may not import runtime/store",
        },
        {
          file: "runtime/domain/ports/e.ts",
          imports: "runtime/domain/write-pipeline.js",
          rule: "runtime/domain/ports sits below runtime/domain",
        },
      ],
    );
  });

  it("refuses import circles among runtime files, type-only imports included, with their path", () => {
    const tree: Record<string, string> = {
      // Two files tied by types only.
      "runtime/services.ts": 'import type { Gate } from "./domain/gate.js";',
      "runtime/domain/gate.ts": 'import type { Services } from "../services.js";',
      // Three files in a circle of values, and a fourth tied in through a second circle.
      "runtime/mcp/x.ts": 'import { y } from "./y.js";',
      "runtime/mcp/y.ts": 'export { z } from "./z.js"; import type { W } from "./w.js";',
      "runtime/mcp/z.ts": 'const x = await import("./x.js");',
      "runtime/mcp/w.ts": 'import type { Y } from "./y.js";',
      // A file importing itself.
      "runtime/capability/self.ts": 'import type { Self } from "./self.js";',
      // No circle: a chain.
      "runtime/store/a.ts": 'import { b } from "./b.js";',
      "runtime/store/b.ts": 'import "pino";',
      // Outside the runtime circles are not this check's business.
      "checks/p.ts": 'import { q } from "./q.js";',
      "checks/q.ts": 'import { p } from "./p.js";',
    };
    const circles = importCircles(Object.keys(tree), (f) => tree[f]);
    assert.deepEqual(circles.map((v) => v.rule).sort(), [
      "import circle: runtime/capability/self.ts → runtime/capability/self.ts",
      "import circle: runtime/domain/gate.ts → runtime/services.ts → runtime/domain/gate.ts",
      "import circle: runtime/mcp/w.ts → runtime/mcp/y.ts → runtime/mcp/w.ts " +
        "(tied into the same circles: runtime/mcp/x.ts, runtime/mcp/z.ts)",
    ]);
    assert.deepEqual(
      circles.find((v) => v.file === "runtime/domain/gate.ts"),
      {
        file: "runtime/domain/gate.ts",
        imports: "runtime/services.ts",
        rule: "import circle: runtime/domain/gate.ts → runtime/services.ts → runtime/domain/gate.ts",
      },
    );
    // The whole check reports them too, beside the direction rules.
    assert.deepEqual(check(tree).sort(), [
      "runtime/capability/self.ts -> runtime/capability/self.ts",
      "runtime/domain/gate.ts -> runtime/services.ts",
      "runtime/mcp/w.ts -> runtime/mcp/y.ts",
    ]);
  });
});

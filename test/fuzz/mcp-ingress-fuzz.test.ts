import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../support/temp-project.js";
import type { FuzzReport } from "./support/fuzz-loop.js";

const run = promisify(execFile);

/**
 * The coverage-guided ingress fuzzer (`npm run fuzz`) in a bounded run: its own process, so that
 * V8 block coverage starts before the runtime is loaded. FUZZ_SEED reproduces a run's choices
 * of the bounded run (random by default); the planted-defect runs always use seed 1, whose budget
 * was measured: their assertion is "found within N requests", which must not depend on luck.
 */
const SEED = process.env.FUZZ_SEED;
async function fuzz(seed: string, ...args: string[]): Promise<FuzzReport[]> {
  const cli = path.join(repoRoot, "test", "fuzz", "fuzz-run.ts");
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", cli, "--json", "--seed", seed, ...args],
    { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string; code?: number }) => {
    // Exit 1 means findings: the report is still on stdout.
    if (error.code === 1 && error.stdout) return { stdout: error.stdout };
    throw error;
  });
  return JSON.parse(stdout) as FuzzReport[];
}

describe("MCP ingress fuzz: coverage-guided, two oracles (no 5xx or internal error, outputs in their schemas)", function () {
  this.timeout(90_000);

  it("a bounded run reaches runtime blocks and finds nothing unknown", async () => {
    const [report] = await fuzz(
      SEED ?? String(Math.floor(Math.random() * 2 ** 31)),
      "--iterations",
      "400",
      "--seconds",
      "6",
    );
    const unknown = report.findings.filter((f) => !f.known);
    assert.deepEqual(unknown, [], `seed ${report.seed}: ${JSON.stringify(unknown, null, 2)}`);
    assert.ok(report.iterations >= 30, `only ${report.iterations} requests`);
    assert.ok(report.blocks > 150, `only ${report.blocks} blocks reached`);
    assert.ok(report.corpus > 0, "no input was kept");
  });

  const planted = [
    ["internal-error", "server-error"],
    ["output-schema", "output-schema"],
  ] as const;
  for (const [defect, oracle] of planted)
    it(`finds the planted defect ${defect} (oracle ${oracle}) within 300 requests`, async () => {
      const [report] = await fuzz("1", "--plant", defect, "--iterations", "300", "--seconds", "60");
      const found = report.findings.filter((f) => !f.known);
      assert.ok(
        found.length > 0,
        `seed ${report.seed}: not found in ${report.iterations} requests`,
      );
      assert.equal(found[0].oracle, oracle, found[0].detail);
      assert.match(found[0].detail, /get_skillpilot_learning_context/);
      assert.ok(report.iterations <= 300);
    });
});

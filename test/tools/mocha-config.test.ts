import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../support/temp-project.js";

const require = createRequire(import.meta.url);
const rcPath = path.join(repoRoot, ".mocharc.cjs");
const MOCHA = path.join(repoRoot, "node_modules", ".bin", "mocha");

/** The configuration .mocharc.cjs gives a mocha started with `args`. */
function configFor(args: string[], script = MOCHA): { spec?: string[] } {
  const saved = process.argv;
  process.argv = [process.execPath, script, ...args];
  try {
    delete require.cache[rcPath];
    return require(rcPath);
  } finally {
    process.argv = saved;
    delete require.cache[rcPath];
  }
}

describe("mocha configuration: the whole suite unless the command line names specs (issue #35 item 7)", () => {
  it("selects every test for a bare run and for options alone, their values included", () => {
    for (const args of [
      [],
      ["--dry-run"],
      ["-g", "Verified Recall"],
      ["--grep", "test/e2e/x.test.ts"],
      ["--timeout", "5000", "--ignore", "test/e2e/tool-fuzz.test.ts"],
      ["--grep=recall", "-j", "2"],
    ])
      assert.deepEqual(configFor(args).spec, ["test/**/*.test.ts"], args.join(" "));
  });

  it("selects nothing more when files, folders, globs or --spec are named", () => {
    for (const args of [
      ["test/diagnostics/rule.test.ts"],
      ["-g", "rule", "test/diagnostics"],
      ["--spec", "test/diagnostics/*.test.ts"],
      ["--spec=test/diagnostics"],
      ["--timeout", "5000", "--", "test/bench"],
    ])
      assert.equal(configFor(args).spec, undefined, args.join(" "));
    // As a spawned mocha process sees it (mocha's CLI script under node's own options).
    const cli = path.join(repoRoot, "node_modules", "mocha", "lib", "cli", "cli.js");
    assert.equal(configFor(["test/bench"], cli).spec, undefined);
  });

  it("runs only the named file's tests", async () => {
    // A dry run runs no hooks, so its temp-dir guard leaves its directory: in one of ours.
    const tmp = await mkdtemp(path.join(tmpdir(), "mocha-config-"));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [MOCHA, "--dry-run", "test/diagnostics/rule.test.ts"],
      { cwd: repoRoot, env: { ...process.env, TMPDIR: tmp } },
    ).finally(() => rm(tmp, { recursive: true, force: true }));
    const listed = stdout
      .split("\n")
      .filter((line) => /^ {2}\S/.test(line) && !/^ {2}\d+ (passing|pending|failing)/.test(line));
    assert.ok(listed.length > 0, stdout);
    assert.ok(
      listed.every((line) => /rule/i.test(line)),
      `other files' suites ran too:\n${listed.join("\n")}`,
    );
    assert.match(stdout, /^[1-9]\d? passed, 0 failed$/m);
  });
});

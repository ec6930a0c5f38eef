// Root hooks of the whole suite (loaded by .mocharc.cjs): every temporary file or directory a test
// or a process it spawns creates goes into one fresh TMPDIR of this run, and after the last test that
// directory must be empty again. Whatever a test left behind fails the run, named, and is removed.
"use strict";
const { chmodSync, mkdtempSync, readdirSync, rmSync } = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const runDir = mkdtempSync(path.join(os.tmpdir(), "skillpilot-suite-"));
// Like /tmp itself, open to the other users tests run programs as (PostgreSQL as `postgres`).
chmodSync(runDir, 0o1777);
// os.tmpdir() reads TMPDIR on every call, and spawned processes inherit it.
process.env.TMPDIR = runDir;
/** A tool's own cache, not a test's to clean: tsx's compile cache of spawned tsx processes. */
const TOOL_CACHE = /^tsx-\d+$/;

exports.mochaHooks = {
  afterAll() {
    const left = readdirSync(runDir).filter((name) => !TOOL_CACHE.test(name));
    rmSync(runDir, { recursive: true, force: true });
    if (left.length > 0)
      throw new Error(
        `the test suite left ${left.length} temporary entr${left.length === 1 ? "y" : "ies"} ` +
          `behind (each test must remove what it creates): ${left.sort().join(", ")}`,
      );
  },
};

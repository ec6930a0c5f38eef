import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli as skillpilot } from "../support/run-cli.js";

describe("bin: a path a command cannot read or write is a diagnostic in its --format, exit 2 (issue #11)", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-io-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("-C to a missing folder: generate --format sarif prints a complete log with INPUT_UNREADABLE", async () => {
    const missing = path.join(dir, "nonexistent");
    const r = await skillpilot(["-C", missing, "generate", "--format", "sarif"]);
    assert.equal(r.code, 2);
    const log = JSON.parse(r.stdout);
    assert.equal(log.version, "2.1.0");
    const [result] = log.runs[0].results;
    assert.equal(result.ruleId, "INPUT_UNREADABLE");
    assert.match(result.message.text, /project root .*nonexistent does not exist.*-C\/--root/);
    assert.doesNotMatch(r.stdout + r.stderr, /ENOENT|scandir/);
    const text = await skillpilot(["-C", missing, "generate"]);
    assert.equal(text.code, 2);
    assert.match(text.stderr, /nonexistent {2}error {2}INPUT_UNREADABLE {2}the project root/);
  });

  it("a root without schemas/: the missing folder is the location, relative to the root", async () => {
    const r = await skillpilot(["-C", dir, "generate", "--format", "json"]);
    assert.equal(r.code, 2);
    assert.deepEqual(JSON.parse(r.stdout).diagnostics, [
      {
        ruleId: "INPUT_UNREADABLE",
        severity: "error",
        message: "cannot read schemas: no such file or directory",
        location: { file: "schemas" },
      },
    ]);
  });

  it("handlers scaffold onto a regular file: OUTPUT_UNWRITABLE at that path, no raw EEXIST", async () => {
    const file = path.join(dir, "afile");
    await writeFile(file, "");
    const r = await skillpilot(["handlers", "scaffold", file, "--format", "json"]);
    assert.equal(r.code, 2);
    assert.deepEqual(JSON.parse(r.stdout).diagnostics, [
      {
        ruleId: "OUTPUT_UNWRITABLE",
        severity: "error",
        message: `cannot write ${file}: it is a file, not a directory`,
        location: { file },
      },
    ]);
    assert.doesNotMatch(r.stdout + r.stderr, /EEXIST/);
  });
});

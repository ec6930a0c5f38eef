import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { runCli } from "../support/run-cli.js";
import type { WireObject } from "../support/wire.js";
import { releaseProject, repoRoot, tempProject } from "../support/temp-project.js";

const TOOL = "schemas/tools/complete_skillpilot_goal.json";
const WRITE_REQUEST = "https://skillpilot.com/schemas/openai/coach/v1/envelopes/write-request";

/** The error lines of a text report (one per diagnostic), and its count line. */
const errorLines = (text: string) =>
  text.split("\n").filter((l) => /\berror\b {2}[A-Z_]+ {2}/.test(l));

describe("schema typos and release steps: one cause, one diagnostic, first, with the fix (issue #24 item 3; G9)", function () {
  this.timeout(120_000);
  let project: { root: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    project = await tempProject(repoRoot, releaseProject);
  });
  afterEach(() => project.cleanup());

  async function editJson(file: string, change: (json: WireObject) => void) {
    const abs = path.join(project.root, file);
    const json = JSON.parse(await readFile(abs, "utf8"));
    change(json);
    await writeFile(abs, `${JSON.stringify(json, null, 2)}\n`);
  }
  const skillpilot = (...args: string[]) => runCli(["-C", project.root, ...args]);

  it('"type": "objekt" is one diagnostic saying "object" was meant', async () => {
    await editJson(TOOL, (t) => {
      t.input.type = "objekt";
    });
    const r = await skillpilot("generate");
    assert.equal(r.code, 1);
    const lines = errorLines(r.stderr);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /TYPE_UNKNOWN {2}unknown type "objekt"; did you mean "object"\?/);
    assert.match(lines[0], /\(at \/input\/type\)/);
  });

  it("minimum on a string suggests removing minimum (or minLength), not another type", async () => {
    await editJson(TOOL, (t) => {
      t.input.properties.decision = { type: "string", minimum: 1, enum: ["achieved"] };
    });
    const r = await skillpilot("generate");
    assert.equal(r.code, 1);
    const lines = errorLines(r.stderr);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0],
      /KEYWORD_WRONG_TYPE {2}minimum applies to numbers, but this schema's type is string: remove minimum, or use minLength for a string/,
    );
    assert.doesNotMatch(r.stderr, /state the type|strict mode/);
  });

  it("a misspelled $ref gets the closest $id and the closest schema location as a suggestion", async () => {
    for (const [typo, meant] of [
      [
        `${WRITE_REQUEST}#/properties/learningSesionId`,
        `${WRITE_REQUEST}#/properties/learningSessionId`,
      ],
      [
        `${WRITE_REQUEST.replace("write-request", "write-reqest")}#/properties/learningSessionId`,
        `${WRITE_REQUEST}#/properties/learningSessionId`,
      ],
    ]) {
      await editJson(TOOL, (t) => {
        t.input.properties.learningSessionId.$ref = typo;
      });
      const r = await skillpilot("generate");
      assert.equal(r.code, 1);
      const lines = errorLines(r.stderr);
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0].includes(`did you mean ${meant}?`), lines[0]);
    }
  });

  it("a version bumped without regenerating: prepare reports the one cause first, with `skillpilot generate`", async () => {
    await editJson("schemas/plugin.json", (p) => {
      p.packageVersion = "1.2.0";
    });
    const r = await skillpilot("prepare");
    assert.equal(r.code, 1);
    const lines = errorLines(r.stderr);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0],
      /^schemas\/plugin\.json {2}error {2}SOURCE_CHANGED {2}schemas\/plugin\.json changed since generated\/ was last written, so \d+ files in generated\/ are out of date; run `skillpilot generate`/,
    );
    assert.equal((await skillpilot("generate")).code, 0);
    const again = await skillpilot("prepare");
    assert.equal(again.code, 0, again.stderr);
  });

  it("freeze's hint for a version the project is not at leads to commands that work", async () => {
    await promisify(execFile)("git", ["init", "-q", project.root]);
    const refused = await skillpilot("freeze", "1.2.0");
    assert.equal(refused.code, 1);
    const hint = errorLines(refused.stderr);
    assert.equal(hint.length, 1, refused.stderr);
    assert.match(
      hint[0],
      /packageVersion is 1\.1\.3: set it to 1\.2\.0 in schemas\/plugin\.json, run `skillpilot generate`, then `skillpilot prepare`/,
    );
    // Follow the hint word for word.
    await editJson("schemas/plugin.json", (p) => {
      p.packageVersion = "1.2.0";
    });
    for (const step of [["generate"], ["prepare"], ["freeze", "1.2.0"]]) {
      const r = await skillpilot(...step);
      assert.equal(r.code, 0, `${step.join(" ")}: ${r.stderr}`);
    }
  });

  it("prepare --version of another version names both ways out", async () => {
    const r = await skillpilot("prepare", "--version", "1.3.0");
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /set packageVersion to 1\.3\.0 in schemas\/plugin\.json and run `skillpilot generate`, or run `skillpilot prepare` without --version to draft 1\.1\.3/,
    );
  });
});

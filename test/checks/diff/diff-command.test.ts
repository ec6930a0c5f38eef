import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile, cp } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import AjvDraft04 from "ajv-draft-04";
import { repoRoot, tempProject } from "../../support/temp-project.js";

const run = promisify(execFile);
const cli = path.join(repoRoot, "bin/skillpilot.ts");
const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
const corpus = path.join(repoRoot, "test/fixtures/diff-corpus");

async function skillpilot(
  args: string[],
  cwd = repoRoot,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, [cli, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
const pair = (name: string) => [
  path.join(corpus, name, "old.json"),
  path.join(corpus, name, "new.json"),
];

describe("skillpilot diff (L6, L12.2)", function () {
  // Spawns the CLI (tsx start-up) or runs property tests: allow for a loaded CI machine.
  this.timeout(120_000);
  it(
    "exits 1 on a breaking change and prints a JSON result that matches the " + "published schema",
    async () => {
      const { code, stdout } = await skillpilot([
        "diff",
        ...pair("input-required-added"),
        "--format",
        "json",
      ]);
      assert.equal(code, 1);
      const result = JSON.parse(stdout);
      const ajv = new Ajv2020({ strict: true });
      addFormats.default(ajv);
      const schema = JSON.parse(
        await readFile(path.join(repoRoot, "checks/diff/contract-diff-result.schema.json"), "utf8"),
      );
      assert.equal(ajv.validate(schema, result), true, JSON.stringify(ajv.errors));
      assert.equal(result.breaking, true);
      assert.equal(result.requiredBump, "major");
      const f = result.findings[0];
      assert.equal(f.ruleId, "INPUT_REQUIRED_ADDED");
      assert.equal(f.tool, "complete_goal");
      assert.equal(f.pointer, "/tools/complete_goal/inputSchema/properties/score");
      assert.equal(f.witness.verified, true);
      assert.ok(f.location.line > 1, "file:line of the change in the new document");
    },
  );

  it("exits 0 on a compatible change and names the bump and L6 class in text", async () => {
    const { code, stdout } = await skillpilot(["diff", ...pair("tool-added")]);
    assert.equal(code, 0);
    assert.match(stdout, /minimum bump minor \(MINOR\)/);
    assert.match(stdout, /TOOL_ADDED/);
  });

  it("fails when the declared package version bump is lower than required (L6)", async () => {
    const [o, n] = pair("input-optional-added");
    const low = await skillpilot([
      "diff",
      o,
      n,
      "--old-version",
      "1.1.3",
      "--new-version",
      "1.1.4",
    ]);
    assert.equal(low.code, 1);
    assert.match(low.stdout, /VERSION_BUMP_TOO_LOW/);
    assert.equal(
      (await skillpilot(["diff", o, n, "--old-version", "1.1.3", "--new-version", "1.2.0"])).code,
      0,
    );
  });

  it("exits 2 on unreadable input and on an unknown format", async () => {
    assert.equal(
      (await skillpilot(["diff", "does-not-exist.json", pair("tool-added")[1]])).code,
      2,
    );
    assert.equal((await skillpilot(["diff", ...pair("tool-added"), "--format", "yaml"])).code, 2);
    const notAContract = await skillpilot([
      "diff",
      path.join(corpus, "tool-added/expected.json"),
      pair("tool-added")[1],
    ]);
    assert.equal(notAContract.code, 2);
    assert.match(notAContract.stderr, /CONTRACT_INPUT_INVALID/);
  });

  it(
    "says so and exits 0 when nothing is published yet; diffs every published " +
      "snapshot once there is one (L12.2)",
    async () => {
      // The project serves its pages from the UI store: a copy without it would serve none.
      const project = await tempProject(repoRoot, [
        "generated/contract.snapshot.json",
        "release/line.json",
        "contracts/ui",
        "contracts/ui-activations.json",
      ]);
      try {
        const none = await skillpilot(["-C", project.root, "diff"]);
        assert.equal(none.code, 0);
        assert.match(none.stdout, /no published snapshot/);
        const snapshot = JSON.parse(
          await readFile(path.join(project.root, "generated/contract.snapshot.json"), "utf8"),
        );
        const dir = path.join(
          project.root,
          "contracts/published/openai/skillpilot-coach",
          snapshot.plugin.packageVersion,
        );
        await mkdir(dir, { recursive: true });
        await cp(
          path.join(project.root, "generated/contract.snapshot.json"),
          path.join(dir, "contract.snapshot.json"),
        );
        assert.equal((await skillpilot(["-C", project.root, "diff"])).code, 0);
        snapshot.tools = snapshot.tools.slice(1);
        await writeFile(
          path.join(project.root, "generated/contract.snapshot.json"),
          JSON.stringify(snapshot, null, 2),
        );
        const broken = await skillpilot(["-C", project.root, "diff", "--format", "github"]);
        assert.equal(broken.code, 1);
        assert.match(
          broken.stdout,
          /^::error file=contracts\/published\/openai\/skillpilot-coach\/.*title=TOOL_REMOVED::/m,
        );
      } finally {
        await project.cleanup();
      }
    },
  );

  it(
    "blocks changed bytes under a published ui:// URI of the project, even with " +
      "a waiver (L10)",
    async () => {
      const project = await tempProject(repoRoot, [
        "generated/contract.snapshot.json",
        "release/line.json",
        "contracts/ui",
        "contracts/ui-activations.json",
      ]);
      try {
        const snapshot = JSON.parse(
          await readFile(path.join(project.root, "generated/contract.snapshot.json"), "utf8"),
        );
        const dir = path.join(
          project.root,
          "contracts/published/openai/skillpilot-coach",
          snapshot.plugin.packageVersion,
        );
        await mkdir(dir, { recursive: true });
        await cp(
          path.join(project.root, "generated/contract.snapshot.json"),
          path.join(dir, "contract.snapshot.json"),
        );
        assert.equal(
          (await skillpilot(["-C", project.root, "diff"])).code,
          0,
          "unchanged UI bytes pass",
        );
        const line = JSON.parse(
          await readFile(path.join(project.root, "release/line.json"), "utf8"),
        );
        // The server serves the store: bytes changed there are bytes changed under the URI.
        const [, uri] = Object.entries(line.activeUi as Record<string, string>)[0];
        await writeFile(
          path.join(project.root, "contracts/ui", uri.slice("ui://".length)),
          "<!doctype html><p>changed in place</p>\n",
        );
        const out = await skillpilot(["-C", project.root, "diff", "--format", "json"]);
        assert.equal(out.code, 1);
        const finding = JSON.parse(out.stdout).findings.find(
          (f: { ruleId: string }) => f.ruleId === "UI_IMMUTABLE_BYTES_CHANGED",
        );
        assert.equal(finding.witness.value.uri, uri);
        await writeFile(
          path.join(project.root, "waivers.json"),
          JSON.stringify({
            waivers: [
              {
                fingerprint: finding.fingerprint,
                reason: "trying to waive immutable bytes",
                approver: "someone",
                expires: "2999-01-01",
              },
            ],
          }),
        );
        const waived = await skillpilot(["-C", project.root, "diff", "--waivers", "waivers.json"]);
        assert.equal(waived.code, 1);
        assert.match(waived.stdout, /WAIVER_NOT_ALLOWED/);
      } finally {
        await project.cleanup();
      }
    },
  );

  it("compares against git:REF (L12.2)", async () => {
    const project = await tempProject(repoRoot, ["generated/contract.snapshot.json"]);
    try {
      const git = (...args: string[]) =>
        run("git", [
          "-C",
          project.root,
          "-c",
          "user.name=t",
          "-c",
          "user.email=t@example.com",
          ...args,
        ]);
      await git("init", "-q");
      await git("add", ".");
      await git("commit", "-q", "-m", "base");
      const snapshot = JSON.parse(
        await readFile(path.join(project.root, "generated/contract.snapshot.json"), "utf8"),
      );
      snapshot.tools[0].annotations.readOnlyHint = !snapshot.tools[0].annotations.readOnlyHint;
      await writeFile(
        path.join(project.root, "generated/contract.snapshot.json"),
        JSON.stringify(snapshot),
      );
      const out = await skillpilot([
        "-C",
        project.root,
        "diff",
        "--against",
        "git:HEAD",
        "--format",
        "json",
      ]);
      const result = JSON.parse(out.stdout);
      assert.equal(result.comparisons[0].old.file, "git:HEAD:generated/contract.snapshot.json");
      assert.ok(
        result.findings.some((f: { ruleId: string }) => f.ruleId.startsWith("ANNOTATION_")),
      );
    } finally {
      await project.cleanup();
    }
  });

  it("emits SARIF 2.1.0 that validates against the official SARIF schema", async () => {
    const { stdout } = await skillpilot([
      "diff",
      ...pair("output-enum-widened"),
      "--format",
      "sarif",
    ]);
    const sarif = JSON.parse(stdout);
    const schemaFile = path.join(
      repoRoot,
      "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json",
    );
    const ajv = new AjvDraft04.default({
      strict: false,
      validateFormats: false,
      unicodeRegExp: false,
    });
    assert.equal(
      ajv.validate(JSON.parse(await readFile(schemaFile, "utf8")), sarif),
      true,
      JSON.stringify(ajv.errors),
    );
    const result = sarif.runs[0].results[0];
    assert.equal(result.ruleId, "OUTPUT_ENUM_WIDENED");
    assert.equal(result.level, "error");
    assert.match(result.partialFingerprints["skillpilot/v1"], /^sha256:/);
    assert.ok(result.locations[0].physicalLocation.region.startLine > 1);
    assert.equal(sarif.runs[0].tool.driver.rules[result.ruleIndex].id, "OUTPUT_ENUM_WIDENED");
  });

  it("renders Markdown with the verdict, a findings table and the witness", async () => {
    const { stdout } = await skillpilot([
      "diff",
      ...pair("input-enum-narrowed"),
      "--format",
      "markdown",
    ]);
    assert.match(stdout, /^## Contract-Diff: breaking/);
    assert.match(stdout, /\| ❌ error \| `INPUT_ENUM_NARROWED` \|/);
    assert.match(stdout, /"decision": "skipped"/);
  });
});

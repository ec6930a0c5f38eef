import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../support/temp-project.js";
import { runCli as skillpilot } from "../support/run-cli.js";

describe("bin: exit codes and help as docs/cli.md says (issue #11: friendly errors)", function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-usage-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("output piped into a reader that stops early (`--help | head`) ends quietly, exit 0", async () => {
    const stderr = path.join(dir, "pipe-stderr.txt");
    // `true` reads nothing and exits: every write of the CLI meets a closed pipe (EPIPE).
    const { stdout } = await promisify(execFile)("bash", [
      "-c",
      '"$0" "$1" --help 2>"$2" | true; echo "$' + '{PIPESTATUS[0]}"',
      process.execPath,
      path.join(repoRoot, "bin/skillpilot.js"),
      stderr,
    ]);
    assert.equal(stdout.trim(), "0");
    assert.equal(await readFile(stderr, "utf8"), "", "no stack trace");
  });

  it("diff reads and checks a given waiver file also when nothing is compared (L12.2)", async () => {
    const broken = path.join(dir, "broken.json");
    await writeFile(broken, "{bad");
    for (const [file, message] of [
      [path.join(dir, "nonexist.json"), /nonexist\.json not found/],
      [broken, /broken\.json is not valid JSON/],
    ] as const) {
      const r = await skillpilot(["diff", "--waivers", file, "--format", "json"]);
      assert.equal(r.code, 2, r.stderr);
      const [diagnostic] = JSON.parse(r.stdout).diagnostics;
      assert.equal(diagnostic.ruleId, "WAIVER_FILE_INVALID");
      assert.match(diagnostic.message, message);
    }
  });

  it("an unreadable skills tree is unusable input: skill-lint exits 2 (L7)", async () => {
    const r = await skillpilot(["skill-lint", "--skills", "nope"]);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /nope {2}error {2}SKILL_TREE_INVALID {2}nope: no such directory/);
  });

  it("a version that is not SemVer is a usage error (exit 2) before anything is read", async () => {
    for (const args of [
      ["freeze", "notsemver"],
      ["unfreeze", "notsemver", "--reason", "x"],
      ["record-published", "notsemver"],
      ["prepare", "--version", "1.0"],
      ["diff", "--old-version", "x"],
      ["diff", "--new-version", "v1.2.0"],
    ]) {
      const r = await skillpilot(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /expected a SemVer version such as 1\.2\.0, got "/, args.join(" "));
      assert.doesNotMatch(r.stdout + r.stderr, /DRAFT_MISSING|NOT_FROZEN/);
    }
  });

  it("help of an unknown command is an error (exit 2); help of a known one is exit 0", async () => {
    const bogus = await skillpilot(["help", "bogus"]);
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /^error: unknown command 'bogus'/);
    assert.equal(bogus.stdout, "");
    const known = await skillpilot(["help", "db", "migrate"]);
    assert.equal(known.code, 0);
    assert.match(known.stdout, /^Usage: skillpilot db migrate/);
  });

  it("--help after an unknown command or subcommand is an error with a suggestion (exit 2)", async () => {
    for (const [args, name, suggestion] of [
      [["lnt", "--help"], "lnt", "lint"],
      [["-C", ".", "lnt", "-h"], "lnt", "lint"],
      [["trace", "chek", "--help"], "chek", "check"],
    ] as const) {
      const r = await skillpilot([...args]);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, new RegExp(`unknown command '${name}'`), args.join(" "));
      assert.match(r.stderr, new RegExp(`Did you mean ${suggestion}\\?`), args.join(" "));
      assert.equal(r.stdout, "", "no help shown");
    }
    const known = await skillpilot(["trace", "check", "--help"]);
    assert.equal(known.code, 0);
    assert.match(known.stdout, /^Usage: skillpilot trace check/);
  });

  it("finds the project root from a subfolder; outside any project it names the folder and -C", async () => {
    const runIn = async (cwd: string, args: string[]) => {
      try {
        const r = await promisify(execFile)(
          process.execPath,
          [path.join(repoRoot, "bin/skillpilot.js"), ...args],
          { cwd },
        );
        return { code: 0, ...r };
      } catch (error) {
        return error as { code: number; stdout: string; stderr: string };
      }
    };
    const fromRoot = await skillpilot(["contract", "show"]);
    const fromSub = await runIn(path.join(repoRoot, "schemas", "tools"), ["contract", "show"]);
    assert.equal(fromSub.code, 0, fromSub.stderr);
    assert.equal(fromSub.stdout, fromRoot.stdout);
    const outside = await runIn(dir, ["lint"]);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /no SkillPilot project/);
    assert.ok(outside.stderr.includes(dir), outside.stderr);
    assert.match(outside.stderr, /-C <dir>/);
    const given = await runIn(dir, ["-C", repoRoot, "lint"]);
    assert.equal(given.code, 0, given.stdout);
  });

  it("a file that is not JSON is reported with the parser's reason and its line and column", async () => {
    const bad = path.join(dir, "bad-list.json");
    await writeFile(bad, '{\n  "tools": [\n    {"name": "a",}\n  ]\n}\n');
    const where = /Expected double-quoted property name at line 3 column 18/;
    const lint = await skillpilot(["lint", bad, "--format", "json"]);
    assert.equal(lint.code, 2, lint.stderr);
    const [diagnostic] = JSON.parse(lint.stdout).diagnostics;
    assert.match(diagnostic.message, where);
    assert.deepEqual([diagnostic.location.line, diagnostic.location.column], [3, 18]);
    const waivers = await skillpilot(["diff", "--waivers", bad, "--format", "json"]);
    assert.match(JSON.parse(waivers.stdout).diagnostics[0].message, where);
    const trace = await skillpilot(["trace", "check", "--contract", bad, bad]);
    assert.equal(trace.code, 2);
    assert.match(trace.stdout + trace.stderr, where);
  });

  it("help texts say what the options do: session start binds nothing, --header has no {}", async () => {
    const session = await skillpilot(["session", "start", "--help"]);
    assert.doesNotMatch(session.stdout, /interface to bind|port to listen on/);
    assert.match(session.stdout, /--host <host> +host of the server the session is for/);
    const diff = await skillpilot(["diff", "--help"]);
    assert.doesNotMatch(diff.stdout, /default: \{\}/);
  });
});

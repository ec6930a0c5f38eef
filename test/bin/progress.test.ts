import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { runCli } from "../support/run-cli.js";
import { releaseProject, repoRoot, tempProject } from "../support/temp-project.js";

const SCRIPT = "/usr/bin/script";
/** The terminal sequence that erases the line (the progress line is rewritten with it). */
const ERASE = "\u001b[2K";
const cli = path.join(repoRoot, "bin/skillpilot.js");
const shellWord = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;

/**
 * Run the compiled CLI with stderr (and stdout, unless redirected in `redirect`) on a pseudo
 * terminal (util-linux `script`), as a person at a terminal would; returns what the terminal got.
 */
async function onTerminal(args: string[], env: NodeJS.ProcessEnv = {}, redirect = "") {
  const command = [process.execPath, cli, ...args].map(shellWord).join(" ") + redirect;
  const { stdout } = await promisify(execFile)(SCRIPT, ["-qefc", command, "/dev/null"], {
    env: { ...process.env, CI: "", TERM: "xterm", ...env },
  });
  return stdout;
}

/** The steps a progress line showed: `<spinner> <command>: <step>` between line erasures. */
const shownSteps = (terminal: string, command: string) =>
  [
    ...terminal.matchAll(
      new RegExp(`\\x1b\\[2K\\S ${command}: ([^\\r(]+?)(?: \\(\\d+ s\\))?(?=\\r|$)`, "g"),
    ),
  ].map((m) => m[1]);

describe("long operations show progress on a terminal, and stay quiet in CI and for machines (issue #24 item 5)", function () {
  this.timeout(180_000);
  let project: { root: string; cleanup: () => Promise<void> };
  before(async function () {
    if (!existsSync(SCRIPT)) {
      process.stdout.write(`\n  NOTICE: progress tests skipped — no ${SCRIPT} (util-linux).\n\n`);
      this.skip();
    }
    project = await tempProject(repoRoot, releaseProject);
  });
  after(() => project?.cleanup());

  it("prepare names its steps on one rewritten line, then erases it and prints the result", async () => {
    const terminal = await onTerminal(["-C", project.root, "prepare"]);
    const steps = shownSteps(terminal, "prepare");
    for (const step of ["generating the contract", "building the archives", "writing the draft"])
      assert.ok(steps.includes(step), `${step} not shown: ${JSON.stringify(steps)}`);
    const result = terminal.indexOf("wrote contracts/drafts/");
    assert.ok(result > 0, terminal);
    assert.ok(terminal.lastIndexOf(ERASE) < result, "the line is erased before the result");
    assert.ok(!terminal.slice(result).includes(ERASE));
  });

  it("verify, diff and db migrate show what they are doing", async () => {
    const dataDir = path.join(project.root, "data");
    for (const [args, command] of [
      [["verify"], "verify"],
      [["diff"], "diff"],
      [["db", "migrate", "--data-dir", dataDir], "db migrate"],
    ] as const) {
      const terminal = await onTerminal(["-C", project.root, ...args]);
      assert.ok(shownSteps(terminal, command).length > 0, `${command}: ${terminal}`);
    }
  });

  it("in CI (CI set) a terminal gets no progress line", async () => {
    const terminal = await onTerminal(["-C", project.root, "prepare"], { CI: "true" });
    assert.deepEqual(shownSteps(terminal, "prepare"), []);
    assert.ok(!terminal.includes(ERASE));
    assert.match(terminal, /unchanged contracts\/drafts\//);
  });

  it("a machine format on stdout stays one clean document while stderr shows progress", async () => {
    const out = path.join(project.root, "verify.sarif");
    const terminal = await onTerminal(
      ["-C", project.root, "verify", "--format", "sarif"],
      {},
      ` > ${shellWord(out)}`,
    );
    assert.ok(shownSteps(terminal, "verify").length > 0, terminal);
    const sarif = JSON.parse(await readFile(out, "utf8"));
    assert.equal(sarif.version, "2.1.0");
    const piped = await runCli(["-C", project.root, "verify", "--format", "json"]);
    assert.ok(!piped.stderr.includes(ERASE), "nothing when stderr is a pipe");
    assert.doesNotMatch(piped.stderr, /verify: checking/);
    assert.deepEqual(JSON.parse(piped.stdout), { diagnostics: [] });
  });
});

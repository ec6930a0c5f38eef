import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Command } from "commander";
import { buildProgram } from "../../bin/program.js";
import { repoRoot, tempProject } from "../support/temp-project.js";

const run = promisify(execFile);
const cli = path.join(repoRoot, "bin/skillpilot.js");

/** Run the real CLI; resolves with exit code and output instead of throwing. */
async function skillpilot(
  args: string[],
  cwd = repoRoot,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("skillpilot CLI", function () {
  this.timeout(60_000);
  let project: { root: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    project = await tempProject(repoRoot, ["schemas", "release/line.json", "generated", "skills"]);
  });
  afterEach(() => project.cleanup());

  it("--help lists the subcommands", async () => {
    const { code, stdout } = await skillpilot(["--help"]);
    assert.equal(code, 0);
    for (const sub of ["generate", "contract", "handlers"])
      assert.match(stdout, new RegExp(`^\\s+${sub}\\b`, "m"));
  });

  it("every subcommand answers --help and ends with its exit codes (L12)", async () => {
    // Walk the real command tree, so a newly registered command cannot skip this; render each help
    // in process (commander's own outputHelp, after-help text included), and spawn the CLI for a
    // sample.
    const walk = (command: Command, prefix: string[]): [string[], Command][] =>
      command.commands.flatMap((sub) => [
        [[...prefix, sub.name()], sub] as [string[], Command],
        ...walk(sub, [...prefix, sub.name()]),
      ]);
    const program = buildProgram();
    const all: [string[], Command][] = [[[], program], ...walk(program, [])];
    assert.ok(all.length >= 17, `found only ${all.length} commands`);
    const endsWithExitCodes = /\nExit codes: 0 [^\n]*, 2 [^\n]*\.\n$/;
    for (const [path, command] of all) {
      const name = ["skillpilot", ...path].join(" ");
      let help = "";
      command.configureOutput({
        writeOut: (text) => {
          help += text;
        },
        writeErr: (text) => {
          help += text;
        },
      });
      command.outputHelp();
      assert.ok(help.startsWith(`Usage: ${name}`), `${name}: ${help.slice(0, 60)}`);
      assert.match(help, endsWithExitCodes, `${name} --help ends with its exit codes`);
    }
    for (const sub of [[], ["diff"], ["session", "start"]]) {
      const { code, stdout } = await skillpilot([...sub, "--help"]);
      assert.equal(code, 0, sub.join(" "));
      assert.match(stdout, endsWithExitCodes, sub.join(" "));
    }
  });

  it("an unknown subcommand exits 2", async () => {
    assert.equal((await skillpilot(["frobnicate"])).code, 2);
  });

  it("generate --check exits 0 on a fresh copy", async () => {
    const { code, stdout } = await skillpilot(["-C", project.root, "generate", "--check"]);
    assert.equal(code, 0);
    assert.match(stdout, /up to date/);
  });

  it("generate --check exits 1 naming a hand-edited generated file (L12 drift gate)", async () => {
    const file = path.join(project.root, "generated/tools.gen.ts");
    await writeFile(
      file,
      (await readFile(file, "utf8")).replace("Load the complete", "Load the whole"),
    );
    const { code, stderr } = await skillpilot(["-C", project.root, "generate", "--check"]);
    assert.equal(code, 1);
    assert.match(stderr, /generated\/tools\.gen\.ts/);
    assert.match(stderr, /GENERATED_EDITED/);
  });

  it(
    "generate --check exits 1 naming the schema whose description was edited, " +
      "and generate repairs it",
    async () => {
      const file = path.join(project.root, "schemas/tools/complete_skillpilot_goal.json");
      const tool = JSON.parse(await readFile(file, "utf8"));
      tool.description += " Edited.";
      await writeFile(file, `${JSON.stringify(tool, null, 2)}\n`);
      const check = await skillpilot(["-C", project.root, "generate", "--check"]);
      assert.equal(check.code, 1);
      assert.match(check.stderr, /schemas\/tools\/complete_skillpilot_goal\.json changed/);
      // The changed schema is the one cause: no line per stale output (issue #24 item 3).
      assert.match(check.stderr, /so \d+ files in generated\/ are out of date/);
      assert.match(check.stderr, /^1 error\(s\)/m);
      assert.equal((await skillpilot(["-C", project.root, "generate"])).code, 0);
      assert.equal((await skillpilot(["-C", project.root, "generate", "--check"])).code, 0);
    },
  );

  it(
    "a bad schema gives a located diagnostic and exit 1, never a stack trace " + "(C5, G11)",
    async () => {
      const file = path.join(project.root, "schemas/tools/complete_skillpilot_goal.json");
      const tool = JSON.parse(await readFile(file, "utf8"));
      tool.input.properties.comment = { type: "string" };
      await writeFile(file, `${JSON.stringify(tool, null, 2)}\n`);
      const { code, stdout, stderr } = await skillpilot([
        "-C",
        project.root,
        "generate",
        "--format",
        "github",
      ]);
      assert.equal(code, 1);
      // Machine formats are the command's output: annotations on stdout, where a CI step reads
      // them.
      assert.match(
        stdout,
        /^::error file=schemas\/tools\/complete_skillpilot_goal\.json,line=\d+,col=\d+,title=FREE_TEXT_INPUT::/m,
      );
      assert.match(stdout, /\/input\/properties\/comment/);
      assert.doesNotMatch(stdout + stderr, /\n\s+at /);
    },
  );

  it("handlers scaffold creates typed not-implemented handlers and never overwrites", async () => {
    const dir = path.join(project.root, "backend/handlers");
    const first = await skillpilot(["-C", project.root, "handlers", "scaffold", dir]);
    assert.equal(first.code, 0, first.stderr);
    const created = (await readdir(dir)).sort();
    assert.equal(created.filter((f) => f.endsWith(".handler.ts")).length, 10);
    assert.ok(created.includes("index.ts"));
    const mine = path.join(dir, "complete-skillpilot-goal.handler.ts");
    await writeFile(mine, "// my implementation\n");
    const second = await skillpilot(["-C", project.root, "handlers", "scaffold", dir]);
    assert.match(second.stdout, /kept .*complete-skillpilot-goal\.handler\.ts/);
    assert.equal(await readFile(mine, "utf8"), "// my implementation\n");
    const { getSkillpilotLearningContext } = await import(
      path.join(dir, "get-skillpilot-learning-context.handler.ts")
    );
    await assert.rejects(getSkillpilotLearningContext({}, {}), {
      name: "NotImplementedError",
      message: /get_skillpilot_learning_context is not implemented/,
    });
  });

  it(
    "handlers scaffold resolves a relative DIR against -C/--root, like every " +
      "path argument (L12)",
    async () => {
      const { code, stdout } = await skillpilot(
        ["-C", project.root, "handlers", "scaffold", "backend/relative"],
        repoRoot,
      );
      assert.equal(code, 0);
      assert.match(stdout, /^created backend\/relative\/complete-skillpilot-goal\.handler\.ts$/m);
      assert.ok((await readdir(path.join(project.root, "backend/relative"))).includes("index.ts"));
      await assert.rejects(readdir(path.join(repoRoot, "backend/relative")), { code: "ENOENT" });
    },
  );

  it("contract show prints identity, line and every tool with its kind", async () => {
    const { code, stdout } = await skillpilot(["-C", project.root, "contract", "show"]);
    assert.equal(code, 0);
    assert.match(stdout, /SkillPilot Coach \(skillpilot-coach\)/);
    assert.match(stdout, /policyRevision 3, CURRENT, DRAFT, ALLOW/);
    assert.match(stdout, /review_skillpilot_memory_practice_card\s+app-only/);
  });
});

import assert from "node:assert/strict";
import type { Command } from "commander";
import { buildProgram } from "../../bin/program.js";
import { messageTemplates, registeredRules } from "../../diagnostics/rule.js";
import { runCli } from "../support/run-cli.js";
import "../../tools/rule-index.js";

/** What a reader cannot look up: issue numbers, requirement ids, the word "issue". */
const TRACKER_REFERENCE = /#\d+|\b[CLGR]\d+(\.\d+)?\b|\bissues?\b/i;

/** Every command of the real tree with its path, the program first. */
function commandTree(): [string, Command][] {
  const walk = (command: Command, prefix: string[]): [string, Command][] =>
    command.commands.flatMap((sub) => {
      const path = [...prefix, sub.name()];
      return [[path.join(" "), sub] as [string, Command], ...walk(sub, path)];
    });
  return [["", buildProgram()], ...walk(buildProgram(), [])];
}

/** A command's `--help` as commander renders it (after-help text included). */
function helpOf(command: Command): string {
  let help = "";
  command.configureOutput({ writeOut: (t) => (help += t), writeErr: (t) => (help += t) });
  command.outputHelp();
  return help;
}

/** The rows of the "Commands:" section of a help text. */
function commandRows(help: string): string[] {
  const lines = help.split("\n");
  const start = lines.indexOf("Commands:");
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.trim() === "");
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe("skillpilot --help: one line per command, detail under help COMMAND (issue #24 item 2)", function () {
  this.timeout(60_000);

  it("no --help of any command names an issue number, a requirement id or the word issue", () => {
    const tree = commandTree();
    assert.ok(tree.length >= 20, `found only ${tree.length} commands`);
    for (const [path, command] of tree) {
      const help = helpOf(command);
      const found = TRACKER_REFERENCE.exec(help);
      assert.equal(found, null, `skillpilot ${path} --help says "${found?.[0]}":\n${help}`);
    }
  });

  it("lists every command on one short line, in every command group", () => {
    for (const [path, command] of commandTree()) {
      const rows = commandRows(helpOf(command));
      if (command.commands.length === 0) continue;
      assert.ok(rows.length >= command.commands.length, `skillpilot ${path}: ${rows.join("\n")}`);
      for (const row of rows)
        assert.match(row, /^ {2}\S/, `skillpilot ${path}: a command row wraps: "${row}"`);
    }
    for (const [path, command] of commandTree().slice(1)) {
      const summary = command.summary();
      assert.ok(summary, `skillpilot ${path} declares no .summary()`);
      assert.ok(summary.length <= 50, `skillpilot ${path}: summary longer than 50: ${summary}`);
      assert.doesNotMatch(summary, /\.$/, `skillpilot ${path}: a summary ends without a full stop`);
    }
  });

  it("shows the detail under `help COMMAND` and `COMMAND --help`, through the compiled CLI", async () => {
    const root = await runCli(["--help"]);
    assert.equal(root.code, 0);
    assert.match(root.stdout, /^ {2}verify +Check the release records and the line \(CI gate\)$/m);
    assert.doesNotMatch(root.stdout, /manifest gate/, "the command list holds no detail");
    for (const args of [
      ["help", "verify"],
      ["verify", "--help"],
    ]) {
      const detail = await runCli(args);
      assert.equal(detail.code, 0, args.join(" "));
      assert.match(detail.stdout, /^Usage: skillpilot verify/);
      assert.match(detail.stdout, /manifest gate \(names, versions, origins\)/);
      assert.doesNotMatch(detail.stdout, TRACKER_REFERENCE);
    }
    const nested = await runCli(["help", "db", "migrate"]);
    assert.match(nested.stdout, /^Usage: skillpilot db migrate/);
  });

  it("no rule message (what a command prints) names a requirement id; the summaries may, for docs/rules.md and SARIF", () => {
    const offending = registeredRules().flatMap((rule) =>
      messageTemplates(rule.message)
        .filter(([, template]) => TRACKER_REFERENCE.test(template))
        .map(([variant, template]) => `${rule.id}${variant && `/${variant}`}: ${template}`),
    );
    assert.deepEqual(offending, []);
  });
});

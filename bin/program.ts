import { Command } from "commander";
import { registerAuthCommand } from "./commands/auth.command.js";
import { registerContractCommand } from "./commands/contract.command.js";
import { registerDbCommand } from "./commands/db.command.js";
import { registerDiffCommand } from "./commands/diff.command.js";
import { registerLintCommand } from "./commands/lint.command.js";
import { registerSkillLintCommand } from "./commands/skill-lint.command.js";
import { registerGenerateCommand } from "./commands/generate.command.js";
import { registerHandlersCommand } from "./commands/handlers.command.js";
import { registerSessionCommand } from "./commands/session-start.command.js";
import { registerStartCommand } from "./commands/start.command.js";
import { registerStatementCommand } from "./commands/statement.command.js";
import { registerFreezeCommand } from "./commands/freeze.command.js";
import { registerPrepareCommand } from "./commands/prepare.command.js";
import { registerRecordPublishedCommand } from "./commands/record-published.command.js";
import { registerTraceCommand } from "./commands/trace.command.js";
import { registerRetireDefinitionsCommand } from "./commands/retire-definitions.command.js";
import { registerUiCommand } from "./commands/ui.command.js";
import { registerUnfreezeCommand } from "./commands/unfreeze.command.js";
import { registerVerifyCommand } from "./commands/verify.command.js";
import { exitCodesHelp } from "./exit-codes.js";
import { configureHelpLayout } from "./help.js";

/**
 * Build the `skillpilot` program without running it (tests walk its commands). Each subcommand
 * lives in its own `commands/*.command.ts`; `skillpilot.ts` is the entry point that parses argv.
 */
export function buildProgram(): Command {
  const program = configureHelpLayout(new Command("skillpilot"))
    .description(
      "SkillPilot Coach contract toolchain: generate, check, serve, diff, lint and release the " +
        "MCP tool contract. `skillpilot help COMMAND` explains a command.",
    )
    .option(
      "-C, --root <dir>",
      "project root (where schemas/ and release/ live; default: the nearest folder at or above " +
        "the working directory that holds schemas/plugin.json)",
    )
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText(
      "after",
      "\nVersions: skillpilot -V, --version prints the toolchain version, the contract major\n" +
        "and the plugin package version of the project (before any subcommand).\n" +
        exitCodesHelp({
          ok: "ok",
          findings: "findings (see each subcommand's --help)",
          usage: "usage error, unreadable input or I/O failure",
        }),
    )
    .exitOverride();
  for (const register of [
    registerGenerateCommand,
    registerContractCommand,
    registerHandlersCommand,
    registerStartCommand,
    registerSessionCommand,
    registerAuthCommand,
    registerDbCommand,
    registerPrepareCommand,
    registerFreezeCommand,
    registerUnfreezeCommand,
    registerRecordPublishedCommand,
    registerRetireDefinitionsCommand,
    registerStatementCommand,
    registerVerifyCommand,
    registerUiCommand,
    registerDiffCommand,
    registerLintCommand,
    registerSkillLintCommand,
    registerTraceCommand,
  ])
    register(program);
  registerHelpCommand(program);
  return program;
}

/**
 * `skillpilot help [command…]`: the help of a command (nested: `help db migrate`). Commander's own
 * help command answers an unknown name with the main help and exit 0; this one says the name is
 * unknown (exit 2), like `skillpilot bogus`.
 */
function registerHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command("help")
    .argument("[command...]", "the command (and subcommand) to explain")
    .summary("Show the help of a command")
    .description("Show the help of a command, e.g. `skillpilot help db migrate`.")
    .addHelpText("after", exitCodesHelp({ ok: "help shown", usage: "unknown command" }))
    .action((names: string[]) => {
      let target = program;
      for (const name of names) {
        const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!next)
          program.error(`error: unknown command '${names.join(" ")}'`, {
            exitCode: 2,
            code: "commander.unknownCommand",
          });
        target = next;
      }
      target.help();
    });
}

/**
 * `skillpilot lnt --help`, `skillpilot trace chek --help`: commander shows the help of the nearest
 * known command (exit 0) when --help follows a name it does not know. Throw its unknown-command
 * error instead (exit 2, with its "Did you mean …?"), as the same line without --help does.
 */
export function rejectUnknownCommandHelp(program: Command, args: readonly string[]): void {
  if (!args.some((a) => a === "-h" || a === "--help")) return;
  let target = program;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return;
    if (a.startsWith("-")) {
      if (target === program && (a === "-C" || a === "--root")) i++;
      continue;
    }
    // A command without subcommands (or one that takes operands itself) ends the walk.
    if (target.commands.length === 0 || target.registeredArguments.length > 0) return;
    const next = target.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!next) {
      target.args = [a];
      // Commander's own error path: the message and the suggestion of the plain unknown command.
      (target as unknown as { unknownCommand(): never }).unknownCommand();
    }
    target = next as Command;
  }
}

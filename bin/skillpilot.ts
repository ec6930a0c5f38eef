import { Command, CommanderError } from "commander";
import { registerContractCommand } from "./commands/contract.command.js";
import { registerDiffCommand } from "./commands/diff.command.js";
import { registerLintCommand } from "./commands/lint.command.js";
import { registerSkillLintCommand } from "./commands/skill-lint.command.js";
import { registerGenerateCommand } from "./commands/generate.command.js";
import { registerHandlersCommand } from "./commands/handlers.command.js";
import { registerStartCommand } from "./commands/start.command.js";
import { registerFreezeCommand } from "./commands/freeze.command.js";
import { registerPrepareCommand } from "./commands/prepare.command.js";
import { registerRecordPublishedCommand } from "./commands/record-published.command.js";
import { registerUiCommand } from "./commands/ui.command.js";
import { registerUnfreezeCommand } from "./commands/unfreeze.command.js";
import { registerVerifyCommand } from "./commands/verify.command.js";
import { ExitCode } from "./exit-codes.js";

/** Build the `skillpilot` program. Each subcommand lives in its own `commands/*.command.ts`. */
export function buildProgram(): Command {
  const program = new Command("skillpilot")
    .description("SkillPilot Coach contract toolchain: generate, check, serve, diff, lint and release the MCP tool contract.")
    .option("-C, --root <dir>", "project root (where schemas/ and release/ live)", process.cwd())
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  for (const register of [registerGenerateCommand, registerContractCommand, registerHandlersCommand, registerStartCommand, registerPrepareCommand, registerFreezeCommand, registerUnfreezeCommand, registerRecordPublishedCommand, registerVerifyCommand, registerUiCommand, registerDiffCommand, registerLintCommand, registerSkillLintCommand]) register(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.help" || error.code === "commander.version" ? ExitCode.ok : ExitCode.usage;
    }
    process.stderr.write(`skillpilot: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.usage;
  }
}

process.exitCode = await main(process.argv);

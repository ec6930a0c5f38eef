import { CommanderError } from "commander";
import { ExitCode } from "./exit-codes.js";
import { buildProgram } from "./program.js";

// Entry point: parse argv and map the outcome to the stable exit codes. The command tree is in
// program.ts.
async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" ||
        error.code === "commander.help" ||
        error.code === "commander.version"
        ? ExitCode.ok
        : ExitCode.usage;
    }
    process.stderr.write(`skillpilot: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.usage;
  }
}

process.exitCode = await main(process.argv);

import path from "node:path";
import { CommanderError } from "commander";
import { ExitCode } from "./exit-codes.js";
import { buildProgram } from "./program.js";
import { versionText } from "./version.js";

/**
 * `-V`/`--version` before any subcommand (a subcommand may have its own `--version`, as
 * `prepare --version X` does): the project root it reports on, or undefined.
 */
function versionRequest(args: readonly string[]): string | undefined {
  let root = process.cwd();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-C" || a === "--root") root = args[++i] ?? root;
    else if (a.startsWith("--root=")) root = a.slice("--root=".length);
    else if (a === "-V" || a === "--version") return path.resolve(root);
    else if (!a.startsWith("-")) return undefined;
  }
  return undefined;
}

// Entry point: parse argv and map the outcome to the stable exit codes. The command tree is in
// program.ts.
async function main(argv: string[]): Promise<number> {
  const versionRoot = versionRequest(argv.slice(2));
  if (versionRoot !== undefined) {
    process.stdout.write(versionText(versionRoot));
    return ExitCode.ok;
  }
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

import path from "node:path";
import { type Command, CommanderError } from "commander";
import type { DiagnosticFormat } from "../diagnostics/render/index.js";
import { findProjectRoot } from "./commands/root.js";
import { ExitCode } from "./exit-codes.js";
import { buildProgram, rejectUnknownCommandHelp } from "./program.js";
import { versionText } from "./version.js";

/**
 * `-V`/`--version` before any subcommand (a subcommand may have its own `--version`, as
 * `prepare --version X` does): the project root it reports on, or undefined.
 */
function versionRequest(args: readonly string[]): string | undefined {
  let root: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-C" || a === "--root") root = args[++i] ?? root;
    else if (a.startsWith("--root=")) root = a.slice("--root=".length);
    else if (a === "-V" || a === "--version")
      return path.resolve(root ?? findProjectRoot(process.cwd()) ?? process.cwd());
    else if (!a.startsWith("-")) return undefined;
  }
  return undefined;
}

// A reader that stopped reading (`skillpilot --help | head`) closes the pipe: that is the end of the
// output, not an error to print a stack for.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? ExitCode.ok);
    throw error;
  });

// Entry point: parse argv and map the outcome to the stable exit codes. The command tree is in
// program.ts.
async function main(argv: string[]): Promise<number> {
  const versionRoot = versionRequest(argv.slice(2));
  if (versionRoot !== undefined) {
    process.stdout.write(versionText(versionRoot));
    return ExitCode.ok;
  }
  const program = buildProgram();
  let running: Command | undefined;
  program.hook("preAction", (_program, action) => {
    running = action;
  });
  try {
    rejectUnknownCommandHelp(program, argv.slice(2));
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
    return await reportFailure(error, running ?? program);
  }
}

/**
 * An error that escaped a command: a path it could not read or write is a diagnostic in the
 * command's `--format` (a machine format still gets its complete document); anything else is its
 * message on one line. Exit 2 either way.
 */
async function reportFailure(error: unknown, command: Command): Promise<number> {
  // Loaded on this error path only: every successful run (`--help` first) starts without them.
  const [{ diagnosticFormats }, { ioFailure }, { emitReport }] = await Promise.all([
    import("../diagnostics/render/index.js"),
    import("./io-failure.js"),
    import("./report.js"),
  ]);
  const given = (command.optsWithGlobals() as { root?: string }).root;
  const root = path.resolve(given ?? findProjectRoot(process.cwd()) ?? ".");
  const diagnostic = ioFailure(error, root);
  const format = (command.opts() as { format?: string }).format;
  if (diagnostic && diagnosticFormats.includes(format as DiagnosticFormat))
    return emitReport([diagnostic], format as DiagnosticFormat, { failWith: ExitCode.usage });
  const message = diagnostic?.message ?? (error instanceof Error ? error.message : String(error));
  process.stderr.write(`skillpilot: ${message}\n`);
  return ExitCode.usage;
}

process.exitCode = await main(process.argv);

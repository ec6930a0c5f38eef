import { Option, type Command } from "commander";
import { diagnosticFormats, renderDiagnostics, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { renderDiff } from "../../release/diff/report.js";
import { runDiff } from "../../release/diff/run-diff.js";
import { ExitCode } from "../exit-codes.js";
import { projectPaths } from "./root.js";

interface DiffOptions {
  against?: string;
  format: DiagnosticFormat;
  waivers?: string;
  oldVersion?: string;
  newVersion?: string;
  snapshot: string;
  today?: string;
}

/** `skillpilot diff [OLD] [NEW]`: direction-aware Contract-Diff with SemVer classification (L6, L12.2). */
export function registerDiffCommand(program: Command): void {
  program
    .command("diff")
    .description("Compare the contract against every published snapshot (or --against, or OLD NEW): breaking changes with witnesses, the minimum SemVer bump and its L6 class.")
    .argument("[old]", "old contract: a snapshot or an MCP tools/list JSON ({\"tools\":[…]} or an array)")
    .argument("[new]", "new contract (default: the project's generated snapshot)")
    .option("--against <spec>", "baseline instead of contracts/published/: a directory (every contract.snapshot.json below it), a file, or git:REF")
    .addOption(new Option("--format <format>", "output format").choices(diagnosticFormats).default("text"))
    .option("--waivers <file>", "waiver file (default: contracts/waivers.json when it exists)")
    .option("--old-version <semver>", "package version of OLD (for plain tools/list documents)")
    .option("--new-version <semver>", "package version of NEW (for plain tools/list documents)")
    .option("--snapshot <file>", "the project's current snapshot", "generated/contract.snapshot.json")
    .option("--today <date>", "evaluate waiver expiry on this UTC date (YYYY-MM-DD) instead of today")
    .addHelpText("after", "\nExit codes: 0 compatible (or nothing published yet), 1 breaking change, declared version bump too low or waiver error, 2 usage or input error.")
    .action(async (oldFile: string | undefined, newFile: string | undefined, opts: DiffOptions, command: Command) => {
      const now = opts.today ? new Date(`${opts.today}T12:00:00Z`) : new Date();
      if (Number.isNaN(now.getTime())) {
        process.stderr.write(`skillpilot diff: --today ${opts.today} is not a date\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      const outcome = await runDiff({ root: projectPaths(command).root, oldFile, newFile, against: opts.against, snapshotFile: opts.snapshot, oldVersion: opts.oldVersion, newVersion: opts.newVersion, waiverFile: opts.waivers, now });
      if (outcome.status === "input-error") {
        process.stderr.write(renderDiagnostics(outcome.diagnostics, opts.format === "json" ? "json" : opts.format));
        process.exitCode = ExitCode.usage;
        return;
      }
      if (outcome.status === "nothing-to-compare") {
        process.stdout.write(opts.format === "json" ? JSON.stringify({ requiredBump: "none", classification: "server-only", breaking: false, comparisons: [], findings: [], problems: [], note: outcome.message }, null, 2) + "\n" : `${outcome.message}\n`);
        return;
      }
      process.stdout.write(renderDiff(outcome.result, outcome.diagnostics, opts.format));
      process.exitCode = outcome.failed ? ExitCode.findings : ExitCode.ok;
    });
}

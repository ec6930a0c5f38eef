import { Option, type Command } from "commander";
import { diagnosticFormats, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { unfreeze } from "../../release/freeze/freeze.js";
import { reportStep } from "../../release/report-step.js";
import { projectPaths } from "./root.js";

/** `skillpilot unfreeze X --reason …`: end a review freeze without publishing. */
export function registerUnfreezeCommand(program: Command): void {
  program
    .command("unfreeze")
    .description("End the review freeze of <version> (e.g. the review was rejected); the reason is kept in the freeze history.")
    .argument("<version>", "the frozen version")
    .requiredOption("--reason <text>", "why the freeze ends (kept in contracts/review-freeze.json)")
    .addOption(new Option("--format <format>", "diagnostic output format").choices(diagnosticFormats).default("text"))
    .addHelpText("after", "\nExit codes: 0 unfrozen, 1 refused (not frozen), 2 usage or I/O error.")
    .action(async (version: string, opts: { reason: string; format: DiagnosticFormat }, command: Command) => {
      process.exitCode = reportStep(await unfreeze(projectPaths(command).root, version, opts.reason), opts.format);
    });
}

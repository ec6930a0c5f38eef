import { Option, type Command } from "commander";
import { diagnosticFormats, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { freeze } from "../../release/freeze/freeze.js";
import { reportStep } from "../../release/report-step.js";
import { projectPaths } from "./root.js";

/** `skillpilot freeze X`: start the review freeze of a draft. */
export function registerFreezeCommand(program: Command): void {
  program
    .command("freeze")
    .description("Lock the draft of <version> for portal review: records its content identity in contracts/review-freeze.json; prepare may then only reproduce it, and the server refuses a different contract.")
    .argument("<version>", "the draft version (SemVer, without -SNAPSHOT)")
    .addOption(new Option("--format <format>", "diagnostic output format").choices(diagnosticFormats).default("text"))
    .addHelpText("after", "\nExit codes: 0 frozen (or already frozen with these bytes), 1 refused, 2 usage or I/O error.")
    .action(async (version: string, opts: { format: DiagnosticFormat }, command: Command) => {
      process.exitCode = reportStep(await freeze(projectPaths(command).root, version), opts.format);
    });
}

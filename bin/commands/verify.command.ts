import { Option, type Command } from "commander";
import { diagnosticFormats, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { reportStep } from "../../release/report-step.js";
import { verifyRelease } from "../../release/verify/verify.js";
import { projectPaths } from "./root.js";

/** `skillpilot verify`: the release CI gate. */
export function registerVerifyCommand(program: Command): void {
  program
    .command("verify")
    .description(
      "Release CI gate: published folders match contracts/release-index.json and rebuild to the same archives, every published UI URI still serves identical bytes, the manifest gate (L12.1), the contract line (L11) and the review freeze (L3).",
    )
    .addOption(new Option("--format <format>", "diagnostic output format").choices(diagnosticFormats).default("text"))
    .addHelpText("after", "\nExit codes: 0 all checks pass (warnings allowed), 1 findings, 2 usage or I/O error.")
    .action(async (opts: { format: DiagnosticFormat }, command: Command) => {
      const diagnostics = await verifyRelease(projectPaths(command).root);
      process.exitCode = reportStep({ diagnostics, message: "release verify: all checks passed" }, opts.format);
    });
}

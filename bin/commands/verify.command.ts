import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

/** `skillpilot verify`: the release CI gate. */
export function registerVerifyCommand(program: Command): void {
  program
    .command("verify")
    .summary("Check the release records and the line (CI gate)")
    .description(
      "Release CI gate: published folders match contracts/release-index.json and " +
        "rebuild to the same archives, release records only grow, a line is published only " +
        "by record-published, every published UI URI still serves identical bytes, the " +
        "manifest gate (names, versions, origins), the contract line across its git history " +
        "and the review freeze.",
    )
    .addOption(formatOption())
    .option(
      "--since <git:REF>",
      "also check the contract line's transitions and policyRevision against release/line.json " +
        "as committed at REF, and that the release index and published folders at REF are still " +
        "there byte for byte (CI passes its git baseline)",
    )
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "all checks pass (warnings allowed)",
        findings: "findings",
        usage: "usage or I/O error",
      }),
    )
    .action(async (opts: { format: DiagnosticFormat; since?: string }, command: Command) => {
      const root = projectPaths(command).root;
      if (opts.since !== undefined) {
        const { checkSinceRef } = await import("../../release/verify/since-ref.js");
        const unusable = await checkSinceRef(root, opts.since);
        if (unusable) {
          process.exitCode = emitReport([unusable], opts.format, { failWith: ExitCode.usage });
          return;
        }
      }
      const { verifyRelease } = await import("../../release/verify/verify.js");
      const { startProgress } = await import("../progress.js");
      const progress = startProgress(
        "verify",
        "checking the release records and the contract line's history",
      );
      const diagnostics = await verifyRelease(root, { since: opts.since }).finally(progress.done);
      process.exitCode = emitReport(diagnostics, opts.format, {
        summary: "release verify: all checks passed",
      });
    });
}

import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { semverArgument } from "../semver-argument.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

/** `skillpilot freeze X`: start the review freeze of a draft. */
export function registerFreezeCommand(program: Command): void {
  program
    .command("freeze")
    .summary("Lock a draft for portal review")
    .description(
      "Lock the draft of <version> for portal review: records its content " +
        "identity in contracts/review-freeze.json; prepare may then only reproduce " +
        "it, and the server refuses a different contract.",
    )
    .argument("<version>", "the draft version (SemVer, without -SNAPSHOT)", semverArgument)
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "frozen (or already frozen with these bytes)",
        findings: "refused",
        usage: "usage or I/O error",
      }),
    )
    .action(async (version: string, opts: { format: DiagnosticFormat }, command: Command) => {
      const { freeze } = await import("../../release/freeze/freeze.js");
      const result = await freeze(projectPaths(command).root, version);
      process.exitCode = emitReport(result.diagnostics, opts.format, { summary: result.message });
    });
}

import { InvalidArgumentError, type Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { semverArgument } from "../semver-argument.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

// Commander turns this into a usage error (exit 2) before anything is read.
export const nonEmpty = (value: string): string => {
  if (!value.trim()) throw new InvalidArgumentError("the reason must not be empty");
  return value;
};

/** `skillpilot unfreeze X --reason …`: end a review freeze without publishing. */
export function registerUnfreezeCommand(program: Command): void {
  program
    .command("unfreeze")
    .summary("End a review freeze without publishing")
    .description(
      "End the review freeze of <version> (e.g. the review was rejected); the " +
        "reason is kept in the freeze history.",
    )
    .argument("<version>", "the frozen version (SemVer)", semverArgument)
    .requiredOption(
      "--reason <text>",
      "why the freeze ends (kept in contracts/review-freeze.json); must not be empty",
      nonEmpty,
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "unfrozen",
        findings: "refused (not frozen)",
        usage: "usage error (e.g. an empty --reason) or I/O error",
      }),
    )
    .action(
      async (
        version: string,
        opts: { reason: string; format: DiagnosticFormat },
        command: Command,
      ) => {
        const { unfreeze } = await import("../../release/freeze/freeze.js");
        const result = await unfreeze(projectPaths(command).root, version, opts.reason);
        process.exitCode = emitReport(result.diagnostics, opts.format, { summary: result.message });
      },
    );
}

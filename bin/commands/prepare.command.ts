import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { semverArgument } from "../semver-argument.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

/** `skillpilot prepare [--version X]`: regenerate the draft release folder. */
export function registerPrepareCommand(program: Command): void {
  program
    .command("prepare")
    .summary("Regenerate the release draft and its archives")
    .description(
      "Regenerate contracts/drafts/openai/<plugin>/<X>-SNAPSHOT/: package tree " +
        "(plugin.json, tools.json, contract-line.json, skills/, ui/), contract " +
        "snapshot, SHA256SUMS, the deterministic plugin-install-bundle.tar.gz and " +
        "directory-submission.zip, and the directory submission pack: " +
        "chatgpt-app-submission.json (the ChatGPT form's import file, with the reviewed " +
        "test cases of release/submission/test-cases.json) and claude-directory-report.json.",
    )
    .option(
      "--version <semver>",
      "release version; must equal packageVersion in schemas/plugin.json (default: that version)",
      semverArgument,
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      "\nWhile X is under review freeze, prepare only succeeds when it " +
        "reproduces the frozen bytes." +
        exitCodesHelp({
          ok: "written or unchanged",
          findings: "findings or refused",
          usage: "usage or I/O error",
        }),
    )
    .action(async (opts: { version?: string; format: DiagnosticFormat }, command: Command) => {
      const { prepare } = await import("../../release/prepare/prepare.js");
      const { startProgress } = await import("../progress.js");
      const progress = startProgress("prepare", "reading the project");
      const result = await prepare(projectPaths(command).root, {
        version: opts.version,
        onStep: progress.step,
      }).finally(progress.done);
      const message =
        result.draft &&
        `${result.outcome === "unchanged" ? "unchanged" : "wrote"} ${result.dir} ` +
          `(content sha256 ${result.draft.contentSha256})\n  tar      ` +
          `${result.draft.archives.tar}\n  tar.gz   ` +
          `${result.draft.archives.tarGz}\n  zip      ${result.draft.archives.zip}`;
      process.exitCode = emitReport(result.diagnostics, opts.format, { summary: message });
    });
}

import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { semverArgument } from "../semver-argument.js";
import { emitReport, formatOption } from "../report.js";
import { isoDate } from "./record-published.command.js";
import { projectPaths, rootRelative } from "./root.js";
import { nonEmpty } from "./unfreeze.command.js";

/** `skillpilot retire-definitions X --reason …`: hosts no longer hold a release's definitions. */
export function registerRetireDefinitionsCommand(program: Command): void {
  program
    .command("retire-definitions")
    .summary("Record a release's definitions as not held")
    .description(
      "Record that no host holds the tool definitions of published <version> any longer; " +
        "append-only, in contracts/retired-definitions.json.",
    )
    .argument("<version>", "a published version", semverArgument)
    .requiredOption("--reason <text>", "why the definitions are no longer live", nonEmpty)
    .option("--date <date>", "retirement date YYYY-MM-DD (default: today, UTC)", isoDate)
    .option(
      "--release-key <file>",
      "the release key signing contracts/approved-definitions.jws (default: $SKILLPILOT_RELEASE_KEY, else a development key)",
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "retired",
        findings: "refused (never published, already retired)",
        usage: "usage error (e.g. an empty --reason) or I/O error",
      }),
    )
    .action(
      async (
        version: string,
        opts: { reason: string; date?: string; releaseKey?: string; format: DiagnosticFormat },
        command: Command,
      ) => {
        const { retireDefinitions } = await import("../../release/retire/retire-definitions.js");
        const result = await retireDefinitions(projectPaths(command).root, version, opts.reason, {
          retiredAt: opts.date,
          releaseKey: opts.releaseKey && rootRelative(command, opts.releaseKey),
        });
        process.exitCode = emitReport(result.diagnostics, opts.format, { summary: result.message });
      },
    );
}

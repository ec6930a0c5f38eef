import { InvalidArgumentError, type Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { semverArgument } from "../semver-argument.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

const isoDate = (value: string): string => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    throw new InvalidArgumentError("expected YYYY-MM-DD");
  return value;
};

/** `skillpilot record-published X`: record a version after the portal published it. */
export function registerRecordPublishedCommand(program: Command): void {
  program
    .command("record-published")
    .summary("Record a version the portal has published")
    .description(
      "After portal publication of <version>: copy its frozen draft to " +
        "contracts/published/openai/<plugin>/<version>/, retain its UI bytes under " +
        "contracts/ui/, append contracts/release-index.json and end the freeze. " +
        "Never overwrites.",
    )
    .argument(
      "<version>",
      "the published version (must be frozen, with unchanged bytes)",
      semverArgument,
    )
    .option("--published-at <date>", "publication date YYYY-MM-DD (default: today, UTC)", isoDate)
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "recorded (or already recorded with the same bytes)",
        findings: "refused",
        usage: "usage or I/O error",
      }),
    )
    .action(
      async (
        version: string,
        opts: { publishedAt?: string; format: DiagnosticFormat },
        command: Command,
      ) => {
        const { recordPublished } = await import("../../release/publish/record-published.js");
        const result = await recordPublished(projectPaths(command).root, version, {
          publishedAt: opts.publishedAt,
        });
        process.exitCode = emitReport(result.diagnostics, opts.format, { summary: result.message });
      },
    );
}

import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

/** `skillpilot generate [--check]`: schemas → generated/. */
export function registerGenerateCommand(program: Command): void {
  program
    .command("generate")
    .summary("Validate schemas/ and write generated/")
    .description(
      "Validate schemas/ and write generated/ (types, validators, MCP " +
        "descriptors, handler interfaces, contract snapshot).",
    )
    .option(
      "--check",
      "write nothing; exit 1 when generated/ differs from what schemas/ produce (CI drift gate)",
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "ok",
        findings: "schema problems or drift",
        usage: "usage or I/O error",
      }),
    )
    .action(async (opts: { check?: boolean; format: DiagnosticFormat }, command: Command) => {
      const { hasErrors } = await import("../../diagnostics/diagnostic.js");
      const { generateFromSources } = await import("../../generator/generate.js");
      const { readContractSources } = await import("../../generator/load.js");
      const { checkGenerated, writeGenerated } = await import("../../generator/write.js");
      const paths = projectPaths(command);
      const result = await generateFromSources(await readContractSources(paths));
      if (hasErrors(result.diagnostics)) {
        process.exitCode = emitReport(result.diagnostics, opts.format);
        return;
      }
      if (opts.check) {
        const drift = await checkGenerated(paths.root, result.files);
        const summary =
          `generated/ is up to date (${result.files.length} files, ` +
          `${result.model!.tools.length} tools)`;
        process.exitCode = emitReport([...result.diagnostics, ...drift], opts.format, { summary });
        return;
      }
      const written = await writeGenerated(paths.root, result.files);
      const summary = written.length
        ? written.map((f) => `wrote ${f}`).join("\n")
        : "generated/ already up to date";
      process.exitCode = emitReport(result.diagnostics, opts.format, { summary });
    });
}

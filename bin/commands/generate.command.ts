import { Option, type Command } from "commander";
import { hasErrors, sortDiagnostics } from "../../diagnostics/diagnostic.js";
import { diagnosticFormats, renderDiagnostics, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { generateFromSources } from "../../generator/generate.js";
import { readContractSources } from "../../generator/load.js";
import { checkGenerated, writeGenerated } from "../../generator/write.js";
import { ExitCode } from "../exit-codes.js";
import { projectPaths } from "./root.js";

/** `skillpilot generate [--check]`: schemas → generated/. */
export function registerGenerateCommand(program: Command): void {
  program
    .command("generate")
    .description("Validate schemas/ and write generated/ (types, validators, MCP descriptors, handler interfaces, contract snapshot).")
    .option("--check", "write nothing; exit 1 when generated/ differs from what schemas/ produce (CI drift gate)")
    .addOption(new Option("--format <format>", "diagnostic output format").choices(diagnosticFormats).default("text"))
    .addHelpText("after", "\nExit codes: 0 ok, 1 schema problems or drift, 2 usage or I/O error.")
    .action(async (opts: { check?: boolean; format: DiagnosticFormat }, command: Command) => {
      const paths = projectPaths(command);
      const result = await generateFromSources(await readContractSources(paths));
      if (hasErrors(result.diagnostics)) {
        process.stderr.write(renderDiagnostics(sortDiagnostics(result.diagnostics), opts.format));
        process.exitCode = ExitCode.findings;
        return;
      }
      if (opts.check) {
        const drift = await checkGenerated(paths.root, result.files);
        if (drift.length > 0) {
          process.stderr.write(renderDiagnostics(sortDiagnostics(drift), opts.format));
          process.exitCode = ExitCode.findings;
          return;
        }
        process.stdout.write(`generated/ is up to date (${result.files.length} files, ${result.model!.tools.length} tools)\n`);
        return;
      }
      const written = await writeGenerated(paths.root, result.files);
      process.stdout.write(written.length ? written.map((f) => `wrote ${f}\n`).join("") : "generated/ already up to date\n");
    });
}

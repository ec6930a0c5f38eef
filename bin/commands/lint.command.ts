import { Option, type Command } from "commander";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { withLines } from "../../diagnostics/locate.js";
import { diagnosticFormats, renderDiagnostics, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { readDoc } from "../../release/diff/baselines.js";
import { lintContract } from "../../release/lint/lint-contract.js";
import { ExitCode } from "../exit-codes.js";
import { projectPaths } from "./root.js";

/** `skillpilot lint [FILE]`: the automatable acceptance gate over a contract snapshot or any tools/list. */
export function registerLintCommand(program: Command): void {
  program
    .command("lint")
    .description("Check the contract against the automatable gate (G1–G4, G11, C5, C16): write envelopes, no free text, closed inputs, no loops, one imperative, UI only on reads, explicit truthful annotations, no secrets in outputs.")
    .argument("[file]", "a contract snapshot or MCP tools/list JSON", "generated/contract.snapshot.json")
    .addOption(new Option("--format <format>", "output format").choices(diagnosticFormats).default("text"))
    .addHelpText("after", "\nExit codes: 0 no errors (warnings allowed), 1 gate violations, 2 usage or unreadable input.")
    .action(async (file: string, opts: { format: DiagnosticFormat }, command: Command) => {
      const root = projectPaths(command).root;
      const input: Diagnostic[] = [];
      const doc = await readDoc(root, file, input);
      const textOf = (f: string) => { try { return readFileSync(path.resolve(root, f), "utf8"); } catch { return undefined; } };
      if (!doc || hasErrors(input)) {
        process.stderr.write(renderDiagnostics(withLines(input, textOf), opts.format));
        process.exitCode = ExitCode.usage;
        return;
      }
      const found = withLines(lintContract(doc), textOf);
      process.stdout.write(renderDiagnostics(found, opts.format));
      process.exitCode = hasErrors(found) ? ExitCode.findings : ExitCode.ok;
    });
}

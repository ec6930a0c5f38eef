import { Option } from "commander";
import { hasErrors, sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import {
  diagnosticFormats,
  renderDiagnostics,
  type DiagnosticFormat,
} from "../diagnostics/render/index.js";
import { ExitCode } from "./exit-codes.js";

/** The `--format` option every diagnostic-producing command shares (same choices, same default). */
export function formatOption(): Option {
  return new Option(
    "--format <format>",
    "report format: text (human) or a machine document on stdout (json, sarif, github, markdown)",
  )
    .choices(diagnosticFormats)
    .default("text");
}

/** True for the formats CI tools parse: their report owns stdout, human lines move to stderr. */
export const isMachineFormat = (format: DiagnosticFormat): boolean => format !== "text";

/**
 * Print a human status line (`wrote …`, `created …`): stdout in text format, stderr for machine
 * formats, so `skillpilot X --format sarif > x.sarif` holds nothing but the SARIF log.
 */
export function emitStatus(format: DiagnosticFormat, line: string): void {
  (isMachineFormat(format) ? process.stderr : process.stdout).write(
    line.endsWith("\n") ? line : `${line}\n`,
  );
}

/** How `emitReport` prints beyond the diagnostics themselves. */
export interface ReportOptions {
  /**
   * Human line(s) printed when there are no errors (e.g. "all checks passed"); see `emitStatus`.
   */
  summary?: string;
  /**
   * Where text-format diagnostics go: commands whose report is their output use stdout; steps that
   * act use stderr.
   */
  textTo?: "stdout" | "stderr";
  /** Exit code when any diagnostic is an error (default 1, findings; input problems use 2). */
  failWith?: number;
}

/**
 * The one way commands report diagnostics. Machine formats always write one complete document to
 * stdout — also when the list is empty (an empty SARIF run, `{"diagnostics":[]}`) — and text keeps
 * the human output. Returns the exit code: `failWith` when any diagnostic is an error, else 0.
 */
export function emitReport(
  diagnostics: readonly Diagnostic[],
  format: DiagnosticFormat,
  opts: ReportOptions = {},
): number {
  const sorted = sortDiagnostics(diagnostics);
  const failed = hasErrors(sorted);
  // A report that is the command's output is always printed (with its "0 error(s)" line); a step's
  // only when it has something to say.
  if (isMachineFormat(format) || opts.textTo === "stdout")
    process.stdout.write(renderDiagnostics(sorted, format));
  else if (sorted.length > 0) process.stderr.write(renderDiagnostics(sorted, format));
  if (failed) return opts.failWith ?? ExitCode.findings;
  if (opts.summary) emitStatus(format, opts.summary);
  return ExitCode.ok;
}

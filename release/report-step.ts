import { hasErrors, sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { renderDiagnostics, type DiagnosticFormat } from "../diagnostics/render/index.js";

/** Exit status of a release command: 0 done or nothing to do, 1 refused or findings. */
export type StepExit = 0 | 1;

/**
 * Print a release step's diagnostics (stderr, in the chosen format) and its message (stdout), and
 * return the exit status: 1 when any diagnostic is an error. One place, so every release command
 * reports refusals the same way.
 */
export function reportStep(result: { diagnostics: readonly Diagnostic[]; message?: string }, format: DiagnosticFormat): StepExit {
  if (result.diagnostics.length) process.stderr.write(renderDiagnostics(sortDiagnostics(result.diagnostics), format));
  if (hasErrors(result.diagnostics)) return 1;
  if (result.message) process.stdout.write(result.message + "\n");
  return 0;
}

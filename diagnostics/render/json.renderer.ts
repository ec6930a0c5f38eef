import type { Diagnostic } from "../diagnostic.js";

/** Machine-readable list: `{"diagnostics":[…]}` with a stable key order. */
export function renderJson(diagnostics: readonly Diagnostic[]): string {
  return `${JSON.stringify({ diagnostics }, null, 2)}\n`;
}

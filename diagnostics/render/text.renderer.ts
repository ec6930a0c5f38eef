import type { Diagnostic } from "../diagnostic.js";

/** Human-readable lines: `file:line:col  severity  RULE_ID  message  (pointer)`, then a count. */
export function renderText(diagnostics: readonly Diagnostic[]): string {
  const lines = diagnostics.map((d) => {
    const where = [
      d.location.file,
      d.location.line,
      d.location.line !== undefined ? d.location.column : undefined,
    ]
      .filter((x) => x !== undefined)
      .join(":");
    const pointer = d.location.pointer !== undefined ? `  (at ${d.location.pointer || "/"})` : "";
    return `${where}  ${d.severity}  ${d.ruleId}  ${d.message}${pointer}`;
  });
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  lines.push(`${errors} error(s), ${warnings} warning(s)`);
  return `${lines.join("\n")}\n`;
}

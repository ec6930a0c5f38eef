import type { Diagnostic } from "../diagnostic.js";

const icon = { error: "❌ error", warning: "⚠️ warning", note: "ℹ️ note" } as const;

// Table cells: pipes split cells and newlines end rows; backticks keep code readable.
const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/**
 * A Markdown report (for PR comments and job summaries): a counts line, a table, then witnesses.
 */
export function renderMarkdown(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const lines = [
    `**${errors} error(s), ${warnings} warning(s), ` +
      `${diagnostics.length - errors - warnings} note(s)**`,
    "",
  ];
  if (diagnostics.length === 0) return `${lines.join("\n")}\n`;
  lines.push("| Severity | Rule | Location | Message |", "|---|---|---|---|");
  for (const d of diagnostics) {
    const where = [
      d.location.file,
      d.location.line,
      d.location.line !== undefined ? d.location.column : undefined,
    ]
      .filter((x) => x !== undefined)
      .join(":");
    const pointer = d.location.pointer ? ` \`${cell(d.location.pointer)}\`` : "";
    lines.push(
      `| ${icon[d.severity]} | \`${d.ruleId}\` | ${cell(where)}${pointer} | ${cell(d.message)} |`,
    );
  }
  const withWitness = diagnostics.filter((d) => d.data?.witness !== undefined);
  if (withWitness.length > 0) {
    lines.push("", "### Witnesses", "");
    for (const d of withWitness) {
      lines.push(
        `<details><summary><code>${d.ruleId}</code> ` +
          `${cell(d.message).replace(/</g, "&lt;")}</summary>`,
        "",
        "```json",
        JSON.stringify(d.data!.witness, null, 2),
        "```",
        "",
        "</details>",
        "",
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { renderDiagnostics, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import type { DiffFinding, DiffResult } from "./contract-diff.js";

/** Findings and problems as shared diagnostics (for SARIF, GitHub, Markdown and text). */
export function diffDiagnostics(result: DiffResult): Diagnostic[] {
  // With several baselines, each finding names the ones it holds for (by package version).
  const label = new Map(
    result.comparisons.map((c) => [c.old.file, c.old.packageVersion ?? c.old.file]),
  );
  const against = (f: DiffFinding) =>
    result.comparisons.length > 1
      ? ` (against ${f.baselines.map((b) => label.get(b) ?? b).join(", ")})`
      : "";
  const fromFinding = (f: DiffFinding): Diagnostic => ({
    ruleId: f.ruleId,
    severity: f.severity,
    message:
      f.message +
      against(f) +
      (f.waiver
        ? ` [waived by ${f.waiver.approver} until ${f.waiver.expires}: ${f.waiver.reason}]`
        : ""),
    location: f.location,
    data: {
      ...(f.tool ? { tool: f.tool } : {}),
      pointer: f.pointer,
      bump: f.bump,
      pinning: f.pinning,
      ...(f.pinningReasons ? { pinningReasons: f.pinningReasons } : {}),
      fingerprint: f.fingerprint,
      baselines: f.baselines,
      ...(f.witness ? { witness: f.witness } : {}),
    },
  });
  return [...result.findings.map(fromFinding), ...result.problems];
}

/** The one-paragraph verdict printed above text and Markdown output. */
export function diffSummary(result: DiffResult): string[] {
  const lines = result.comparisons.map((c) => {
    const versions =
      c.old.packageVersion || c.new.packageVersion
        ? ` (${c.old.packageVersion ?? "?"} → ${c.new.packageVersion ?? "?"}, ` +
          `declared ${c.declaredBump ?? "unknown"})`
        : "";
    return (
      `${c.old.file} → ${c.new.file}${versions}: requires ${c.requiredBump} ` +
      `(${c.classification})${c.breaking ? ", BREAKING" : ""}`
    );
  });
  lines.push(
    `verdict: ${result.breaking ? "breaking" : "compatible"}; minimum bump ` +
      `${result.requiredBump} (${result.classification})`,
  );
  return lines;
}

/**
 * Render a diff result; `json` is the published result document (`contract-diff-result.schema.json`),
 * the rest are diagnostic renderers over its findings and problems, each at the location it
 * carries. A result that compared nothing (no baseline yet) has no verdict: its report is its notice.
 */
export function renderDiff(result: DiffResult, format: DiagnosticFormat): string {
  if (format === "json") return `${JSON.stringify(result, null, 2)}\n`;
  const body = renderDiagnostics(diffDiagnostics(result), format);
  if (result.comparisons.length === 0) return body;
  if (format === "text") return `${diffSummary(result).join("\n")}\n${body}`;
  if (format === "markdown")
    return `## Contract-Diff: ${result.breaking ? "breaking" : "compatible"}\n\n${diffSummary(
      result,
    )
      .map((l) => `- ${l}`)
      .join("\n")}\n\n${body}`;
  return body;
}

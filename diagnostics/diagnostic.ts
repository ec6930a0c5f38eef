/** Severity of a finding: errors fail the command, warnings and notes only inform. */
export type Severity = "error" | "warning" | "note";

/**
 * Where a finding points: a repository-relative file, a JSON pointer inside it, and (when known) a
 * 1-based line/column.
 */
export interface Location {
  file: string;
  pointer?: string;
  line?: number;
  column?: number;
}

/**
 * One problem found in user input (schemas, contracts, skills). Every command reports these;
 * renderers format them.
 */
export interface Diagnostic {
  ruleId: string;
  severity: Severity;
  message: string;
  location: Location;
  /** Optional structured extras a renderer may show (e.g. a diff witness). */
  data?: Record<string, unknown>;
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/**
 * Stable order: file, then line, then pointer, then rule id, then message. Renderers and tests rely
 * on it.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => [
    d.location.file,
    String(d.location.line ?? 0).padStart(8, "0"),
    d.location.pointer ?? "",
    d.ruleId,
    d.message,
  ];
  return [...diagnostics].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

/** Encode one JSON pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Join a base pointer and segments into a JSON pointer. */
export function pointerJoin(base: string, ...segments: (string | number)[]): string {
  return base + segments.map((s) => `/${escapePointerSegment(s)}`).join("");
}

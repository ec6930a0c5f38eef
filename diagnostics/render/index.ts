import type { Diagnostic } from "../diagnostic.js";
import { renderGithub } from "./github.renderer.js";
import { renderJson } from "./json.renderer.js";
import { renderMarkdown } from "./markdown.renderer.js";
import { renderSarif } from "./sarif.renderer.js";
import { renderText } from "./text.renderer.js";

/** Output formats every diagnostic-producing command accepts via `--format`. */
export const diagnosticFormats = ["text", "json", "sarif", "github", "markdown"] as const;
export type DiagnosticFormat = (typeof diagnosticFormats)[number];

const renderers: Record<DiagnosticFormat, (d: readonly Diagnostic[]) => string> = {
  text: renderText,
  json: renderJson,
  sarif: renderSarif,
  github: renderGithub,
  markdown: renderMarkdown,
};

/** Render diagnostics in one of the supported formats. */
export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  format: DiagnosticFormat,
): string {
  return renderers[format](diagnostics);
}

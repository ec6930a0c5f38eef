import type { Diagnostic } from "../diagnostic.js";

const level = { error: "error", warning: "warning", note: "notice" } as const;

// GitHub workflow commands need %, CR, LF (and in properties ":" and ",") escaped.
const escapeData = (s: string) =>
  s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** GitHub Actions annotations, one `::error file=…,line=…::message` line per diagnostic. */
export function renderGithub(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const props = [`file=${escapeProperty(d.location.file)}`];
      if (d.location.line !== undefined) props.push(`line=${d.location.line}`);
      if (d.location.column !== undefined) props.push(`col=${d.location.column}`);
      props.push(`title=${escapeProperty(d.ruleId)}`);
      const pointer = d.location.pointer ? ` (at ${d.location.pointer})` : "";
      return `::${level[d.severity]} ${props.join(",")}::${escapeData(d.message + pointer)}`;
    })
    .map((l) => `${l}\n`)
    .join("");
}

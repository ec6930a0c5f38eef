import { sortDiagnostics, type Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ContractDoc } from "../../contract-model/contract-doc.js";
import { lintTool } from "./lint-rule.js";
import { lintRules } from "./rules/index.js";

/** Run the gate lint over one contract document (our snapshot or any tools/list). */
export function lintContract(doc: ContractDoc): Diagnostic[] {
  const tools = [...doc.tools.values()].map(lintTool).sort((a, b) => (a.name < b.name ? -1 : 1));
  const out: Diagnostic[] = [];
  for (const rule of lintRules) rule.check(tools, doc, (d) => out.push(d));
  return sortDiagnostics(out);
}

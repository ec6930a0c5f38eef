import type { Location, RuleMeta, Severity } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule-table.js";
import type { ContractDoc, DiffTool } from "../../contract/contract-doc.js";

/**
 * How a tool is used, from the snapshot's `kind` or, for a plain tools/list, from its annotations
 * and visibility.
 */
export type ToolKind = "read" | "write" | "app-only";

/** A tool as the gate lint sees it. */
export interface LintTool extends DiffTool {
  effectiveKind: ToolKind;
  /** Hidden from the model (`_meta.ui.visibility` is exactly `["app"]`). */
  appOnly: boolean;
}

export type LintReport = (message: string, location: Location, severity?: Severity) => void;

/**
 * One gate rule: shared-table metadata, the gate/requirement it automates, and a pure check over
 * the contract.
 */
export interface LintRule {
  meta: RuleMeta;
  check(tools: readonly LintTool[], doc: ContractDoc, report: LintReport): void;
}

/** Define a gate lint rule and register its id in the shared rule table. */
export function createLintRule(def: RuleMeta & { check: LintRule["check"] }): LintRule {
  return {
    meta: defineRule({ id: def.id, severity: def.severity, summary: def.summary }),
    check: def.check,
  };
}

/** The lint view of a diff-side tool. */
export function lintTool(tool: DiffTool): LintTool {
  const appOnly = JSON.stringify(tool.visibility) === JSON.stringify(["app"]);
  const kind =
    tool.kind === "read" || tool.kind === "write" || tool.kind === "app-only"
      ? tool.kind
      : appOnly
        ? "app-only"
        : tool.annotations?.readOnlyHint === true
          ? "read"
          : "write";
  return { ...tool, effectiveKind: kind, appOnly };
}

import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { MessageSpec } from "../../diagnostics/message-template.js";
import { type Report, type Rule, reporter } from "../../diagnostics/rule.js";
import type { ContractDoc, DiffTool } from "../../contract-model/contract-doc.js";

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

/** One gate rule: a rule of the shared table (family `lint`) and a pure check over the contract. */
export interface LintRule {
  rule: Rule;
  check(tools: readonly LintTool[], doc: ContractDoc, emit: (diagnostic: Diagnostic) => void): void;
}

/** Attach a check to a gate lint rule declared with `defineRule`. */
export function lintRule<M extends MessageSpec>(
  rule: Rule<M>,
  check: (tools: readonly LintTool[], doc: ContractDoc, report: Report<M>) => void,
): LintRule {
  return { rule, check: (tools, doc, emit) => check(tools, doc, reporter(rule, emit)) };
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

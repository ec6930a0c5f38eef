import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import type { MessageSpec } from "../../../diagnostics/message-template.js";
import { type Report, type Rule, reporter } from "../../../diagnostics/rule.js";
import type { ContractDoc } from "../../../contract-model/contract-doc.js";
import type { JsonObject } from "../../../json-schema/walk.js";
import type { LintTool } from "../lint-rule.js";

/** The app directories whose review rules `lint --profile` checks. */
export const directoryProfiles = ["openai-directory", "claude-directory"] as const;
export type DirectoryProfile = (typeof directoryProfiles)[number];

/** A widget CSP as a listing declares it: each list of origins, by its MCP Apps name. */
export type DeclaredCsp = Record<string, readonly string[]>;

/** What a directory rule may read beyond the tools: the document's raw parts. */
export interface DirectoryContext {
  profile: DirectoryProfile;
  /** The snapshot's plugin identity; undefined for a plain tools/list. */
  plugin?: JsonObject;
  /** The widget CSP a UI-bound tool runs under, where the document tells it. */
  cspOf(tool: LintTool): DeclaredCsp | undefined;
}

/** One directory review rule: a rule of the shared table (family `lint`) and its check. */
export interface DirectoryRule {
  rule: Rule;
  /** The profiles that apply it. */
  profiles: readonly DirectoryProfile[];
  check(
    tools: readonly LintTool[],
    doc: ContractDoc,
    ctx: DirectoryContext,
    emit: (diagnostic: Diagnostic) => void,
  ): void;
}

/** Attach a check to a directory rule declared with `defineRule`. */
export function directoryRule<M extends MessageSpec>(
  rule: Rule<M>,
  profiles: readonly DirectoryProfile[],
  check: (
    tools: readonly LintTool[],
    doc: ContractDoc,
    ctx: DirectoryContext,
    report: Report<M>,
  ) => void,
): DirectoryRule {
  return {
    rule,
    profiles,
    check: (tools, doc, ctx, emit) => check(tools, doc, ctx, reporter(rule, emit)),
  };
}

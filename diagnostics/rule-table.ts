import type { Diagnostic, Location, RuleMeta, Severity } from "./diagnostic.js";
import { diagnose as diagnoseRule, defineRule as define, type Rule } from "./rule.js";

/**
 * Transitional: the pre-template rule API on top of `rule.ts`, while report sites move to
 * templates (issue #11, 4c). Removed once every rule is declared with `rule.ts`.
 */
export function defineRule(meta: RuleMeta): Rule<"{message}"> {
  return define({ ...meta, family: "generator", message: "{message}" });
}

/** Transitional: a diagnostic with a pre-formatted message. */
export function diagnose(
  rule: RuleMeta,
  message: string,
  location: Location,
  extra: { severity?: Severity; data?: Record<string, unknown> } = {},
): Diagnostic {
  return diagnoseRule(rule as Rule<"{message}">, { message }, location, extra);
}

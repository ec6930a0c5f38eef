import type { Diagnostic, Location, RuleMeta, Severity } from "./diagnostic.js";

/**
 * The single table of rule ids. Generator checks, gate lint, contract diff and skill lint register
 * their rules here so every renderer (and SARIF's rule list) sees one catalogue. An id, once
 * published, never changes meaning.
 */
const table = new Map<string, RuleMeta>();

/** Register a rule (idempotent for the same definition; a conflicting re-definition is a bug). */
export function defineRule(meta: RuleMeta): RuleMeta {
  const existing = table.get(meta.id);
  if (existing && (existing.severity !== meta.severity || existing.summary !== meta.summary)) {
    throw new Error(`rule ${meta.id} defined twice with different meaning`);
  }
  table.set(meta.id, meta);
  return meta;
}

/** Look a rule up by id. */
export function ruleMeta(id: string): RuleMeta | undefined {
  return table.get(id);
}

/** Build a diagnostic for a registered rule, with the rule's default severity unless overridden. */
export function diagnose(
  rule: RuleMeta,
  message: string,
  location: Location,
  extra: { severity?: Severity; data?: Record<string, unknown> } = {},
): Diagnostic {
  return {
    ruleId: rule.id,
    severity: extra.severity ?? rule.severity,
    message,
    location,
    ...(extra.data ? { data: extra.data } : {}),
  };
}

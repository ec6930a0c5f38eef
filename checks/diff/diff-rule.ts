import type { RuleMeta, Severity } from "../../diagnostics/diagnostic.js";
import { defineRule } from "../../diagnostics/rule-table.js";
import type { ContractDoc } from "../../contract/contract-doc.js";
import type { ValueChecker } from "./value-check.js";

/** The SemVer bump a change requires, smallest first. */
export const bumps = ["none", "patch", "minor", "major"] as const;
export type Bump = (typeof bumps)[number];

/** Larger of two bumps. */
export const maxBump = (a: Bump, b: Bump): Bump => (bumps.indexOf(a) >= bumps.indexOf(b) ? a : b);

/**
 * A diff rule: shared-table metadata plus the bump it requires and whether a waiver may accept it.
 */
export interface DiffRuleMeta extends RuleMeta {
  bump: Bump;
  waivable: boolean;
}

const severityOf = (bump: Bump): Severity => (bump === "major" ? "error" : "note");

/**
 * Register a diff rule id in the shared rule table. Breaking (major) rules are errors; the rest are
 * notes.
 */
export function defineDiffRule(
  id: string,
  bump: Bump,
  summary: string,
  opts: { severity?: Severity; waivable?: boolean } = {},
): DiffRuleMeta {
  const meta = defineRule({
    id,
    severity: opts.severity ?? severityOf(bump),
    summary: `${summary} [${bump}]`,
  });
  return { ...meta, bump, waivable: opts.waivable ?? true };
}

/** A concrete value that shows a break: valid for one side, rejected by the other. */
export interface Witness {
  /**
   * `call`: tool arguments an old client sends; `result`: structured content a server returns;
   * `value`: an envelope value.
   */
  kind: "call" | "result" | "value" | "fact";
  /** The side whose schema accepts the value and the side that rejects it. */
  acceptedBy: "old" | "new";
  rejectedBy: "old" | "new";
  value: unknown;
  /** True when Ajv (or, for facts, the compared documents themselves) confirmed it. */
  verified: boolean;
}

/** What a rule reports; the engine adds severity, location, fingerprint and waiver status. */
export interface RawFinding {
  tool?: string;
  /**
   * Stable, name-based pointer (`/tools/<name>/inputSchema/properties/x`), used in output and
   * fingerprints.
   */
  pointer: string;
  /** The side and real JSON pointer where the change sits, for file:line. */
  at: { side: "old" | "new"; pointer: string };
  message: string;
  witness?: Witness;
  /** The compared nodes, hashed into the fingerprint. */
  before: unknown;
  after: unknown;
}

/** Inputs of every diff rule. Rules are pure: no I/O, no clock. */
export interface DiffContext {
  old: ContractDoc;
  new: ContractDoc;
  checker: ValueChecker;
}

export type DiffReport = (rule: DiffRuleMeta, finding: RawFinding) => void;

/** A group of related rule ids checked together (one `*.rule.ts`). */
export interface DiffCheck {
  rules: readonly DiffRuleMeta[];
  check(ctx: DiffContext, report: DiffReport): void;
}

import type { MessageSpec, ParamsOf } from "../../diagnostics/message-template.js";
import { type Bump, bumps, type DiffRule } from "../../diagnostics/rule.js";
import type { ContractDoc } from "../../contract-model/contract-doc.js";
import type { ValueChecker } from "./value-check.js";

/** Larger of two bumps. */
export const maxBump = (a: Bump, b: Bump): Bump => (bumps.indexOf(a) >= bumps.indexOf(b) ? a : b);

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
  /**
   * How the rejecting side treats the value: absent when its schema refuses it; `undeclared` when
   * the value carries a property that side's open object does not declare (an input it ignores, an
   * output field it no longer returns).
   */
  effect?: "undeclared";
  /** True when Ajv (or, for facts, the compared documents themselves) confirmed it. */
  verified: boolean;
}

/**
 * What a rule reports besides its message parameters; the engine adds the message, severity,
 * location, fingerprint and waiver status.
 */
export interface RawFinding {
  tool?: string;
  /**
   * Stable, name-based pointer (`/tools/<name>/inputSchema/properties/x`), used in output and
   * fingerprints.
   */
  pointer: string;
  /** The side and real JSON pointer where the change sits, for file:line. */
  at: { side: "old" | "new"; pointer: string };
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

/** Report one finding of a change rule: the rule, its message parameters and the finding. */
export type DiffReport = <M extends MessageSpec>(
  rule: DiffRule<M>,
  params: ParamsOf<M>,
  finding: RawFinding,
) => void;

/**
 * A group of related change rules (declared with `defineRule`, family `diff`) checked together
 * (one `*.rule.ts`).
 */
export interface DiffCheck {
  rules: readonly DiffRule[];
  check(ctx: DiffContext, report: DiffReport): void;
}

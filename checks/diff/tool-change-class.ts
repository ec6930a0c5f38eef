import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { Bump } from "../../diagnostics/rule.js";
import { parseContractDoc } from "../../contract-model/contract-doc.js";
import { compareContracts } from "./contract-diff.js";
import { maxBump } from "./diff-rule.js";
import { type Classification, classify } from "./semver-class.js";
import { ValueChecker } from "./value-check.js";

/**
 * Contract-Diff's class of one tool's change, from the definition a host holds to the one served
 * now: every diff rule runs over the two `tools/list` descriptors, and the largest bump its
 * findings need is the class (`server-only` when none). What the server's definition-tag decision
 * table reads for a call that echoes an older tag. A descriptor Contract-Diff cannot read at all
 * is `incompatible`: nothing proves the held calls are still accepted.
 */
export function classifyToolChange(
  held: Record<string, unknown>,
  current: Record<string, unknown>,
  checker: ValueChecker = new ValueChecker(),
): Classification {
  const problems: Diagnostic[] = [];
  const before = parseContractDoc([held], "held", problems);
  const after = parseContractDoc([current], "current", problems);
  if (!before || !after) return "incompatible";
  const name = String(held.name);
  let bump: Bump = "none";
  for (const f of compareContracts(before, after, checker))
    if (f.tool === undefined || f.tool === name) bump = maxBump(bump, f.bump);
  return classify(bump);
}

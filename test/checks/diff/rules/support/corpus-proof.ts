import assert from "node:assert/strict";
import type { DiffCheck } from "../../../../../checks/diff/diff-rule.js";
import type { Severity } from "../../../../../diagnostics/diagnostic.js";
import { diffCase } from "../../support/corpus-case.js";

/** Where a Contract-Diff rule is proven: corpus cases under `test/fixtures/diff-corpus/`. */
export interface CorpusProof {
  rule: string;
  severity: Severity;
  /** The case the rule fires on, and the pointer and a key part of the message of its finding. */
  fires: string;
  pointer: string;
  message: RegExp;
  /** The nearest good change: a case, or a case compared backwards, that must not report it. */
  quiet: string | { reversed: string };
}

/**
 * One test per proof: the rule's finding on its case (rule id, severity, pointer, message), and
 * none on the nearest good case. The proofs cover exactly the rules `check` reports, less those
 * proven `elsewhere` (a rule of another module the check also reports).
 */
export function proveByCorpus(
  check: Pick<DiffCheck, "rules">,
  proofs: readonly CorpusProof[],
  elsewhere: readonly { id: string }[] = [],
): void {
  it("proves each rule its check reports, once", () => {
    const skip = new Set(elsewhere.map((r) => r.id));
    assert.deepEqual(
      proofs.map((p) => p.rule).sort(),
      check.rules
        .map((r) => r.id)
        .filter((id) => !skip.has(id))
        .sort(),
    );
  });
  for (const p of proofs) {
    const quiet = typeof p.quiet === "string" ? p.quiet : `${p.quiet.reversed} compared backwards`;
    it(`${p.rule}: fires on ${p.fires} (${p.severity}), quiet on ${quiet}`, () => {
      const found = diffCase(p.fires).findings;
      const hit = found.find((f) => f.ruleId === p.rule);
      assert.ok(hit, `${p.fires}: no ${p.rule} among ${found.map((f) => f.ruleId).join(", ")}`);
      assert.equal(hit.severity, p.severity);
      assert.equal(hit.pointer, p.pointer);
      assert.match(hit.message, p.message);
      const quietFound =
        typeof p.quiet === "string"
          ? diffCase(p.quiet).findings
          : diffCase(p.quiet.reversed, true).findings;
      assert.deepEqual(
        quietFound.filter((f) => f.ruleId === p.rule).map((f) => f.message),
        [],
        quiet,
      );
    });
  }
}

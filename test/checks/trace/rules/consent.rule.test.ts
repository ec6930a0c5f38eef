import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { checkTrace, contractFacts } from "../../../../checks/trace/check-trace.js";
import type { TurnFacts } from "../../../../contract-model/trace/turn-facts.js";
import { repoRoot } from "../../../support/temp-project.js";

const dir = path.join(repoRoot, "test/fixtures/traces/consent");

/** The findings of a consent fixture against the project's contract, as `line rule message`. */
async function findings(name: string): Promise<string[]> {
  const snapshot = path.join(repoRoot, "generated/contract.snapshot.json");
  const facts = contractFacts(JSON.parse(await readFile(snapshot, "utf8"))) as TurnFacts;
  const result = checkTrace(await readFile(path.join(dir, name), "utf8"), name, facts, "contract", {
    turnGapSeconds: 30,
  });
  assert.equal(result.unusable, false, JSON.stringify(result.diagnostics));
  return result.diagnostics.map((d) => `${d.location.line} ${d.ruleId} ${d.message}`);
}

describe("trace check: the learner's consent (C7, C10, C12, C13, G10)", () => {
  it("derives from the contract which write records what a read revealed (Verified Recall)", async () => {
    const snapshot = path.join(repoRoot, "generated/contract.snapshot.json");
    const facts = contractFacts(JSON.parse(await readFile(snapshot, "utf8"))) as TurnFacts;
    assert.deepEqual(
      [...facts.revealedBy].map(([write, reads]) => [write, [...reads]]),
      [["record_skillpilot_verified_recall_results", ["get_skillpilot_verified_recall_answers"]]],
    );
  });

  it("TRACE_RECALL_RECORDED_WITHOUT_CONSENT: results saved in the turn of the reference answers", async () => {
    // Answers in one turn, the save after the learner's own message: nothing to report.
    assert.deepEqual(await findings("recall-recorded.good.jsonl"), []);
    assert.deepEqual(await findings("recall-recorded.bad.jsonl"), [
      "11 TRACE_RECALL_RECORDED_WITHOUT_CONSENT turn 2: record_skillpilot_verified_recall_results " +
        "saved the results in the turn that revealed them (get_skillpilot_verified_recall_answers), " +
        "before the learner could agree",
    ]);
  });

  it("TRACE_SUCCESSOR_WITHOUT_CONSENT: a call after a continuation that asked for consent, in its turn", async () => {
    // The exam starts on the next learner message's fresh context: nothing to report.
    assert.deepEqual(await findings("successor.good.jsonl"), []);
    assert.deepEqual(await findings("successor.bad.jsonl"), [
      "16 TRACE_SUCCESSOR_WITHOUT_CONSENT turn 3: start_skillpilot_memory_practice started the " +
        "next step although record_skillpilot_verified_recall_results's continuation asked for " +
        "the learner's consent first",
    ]);
  });

  it("TRACE_SUCCESSOR_WITHOUT_CONSENT: a context read in between is judged by its own rule, the step after it still counts", async () => {
    const text = await readFile(path.join(dir, "successor.bad.jsonl"), "utf8");
    const lines = text.trimEnd().split("\n");
    // Lines 12–13 are the turn's context read and its answer: read again before the next step.
    const reread = [...lines.slice(0, 15), ...lines.slice(11, 13), ...lines.slice(15)];
    const snapshot = path.join(repoRoot, "generated/contract.snapshot.json");
    const facts = contractFacts(JSON.parse(await readFile(snapshot, "utf8"))) as TurnFacts;
    const result = checkTrace(`${reread.join("\n")}\n`, "reread.jsonl", facts, "contract", {
      turnGapSeconds: 30,
    });
    assert.deepEqual(
      result.diagnostics.map((d) => [d.location.line, d.ruleId]),
      [
        [16, "TRACE_CONTEXT_AFTER_WRITE"],
        [18, "TRACE_SUCCESSOR_WITHOUT_CONSENT"],
      ],
    );
  });
});

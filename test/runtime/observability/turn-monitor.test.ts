import assert from "node:assert/strict";
import { deriveTurnFacts } from "../../../contract-model/trace/turn-facts.js";
import { toolDescriptors } from "../../../generated/tools.gen.js";
import { createMetrics, type RuntimeMetrics } from "../../../runtime/observability/metrics.js";
import { type ObservedCall, TurnMonitor } from "../../../runtime/observability/turn-monitor.js";

const sid = `sps_${"m".repeat(30)}`;
const capability = (purpose: string) => `cap1.${purpose}.${"x".repeat(40)}`;
const context = (stateVersion: number): ObservedCall => ({
  tool: "get_skillpilot_learning_context",
  args: { learningSessionId: sid },
  code: "OK",
  output: { stateVersion, requiredAction: "offerVerifiedRecall" },
});
const answers: ObservedCall = {
  tool: "get_skillpilot_verified_recall_answers",
  args: { learningSessionId: sid, batchCapability: capability("batch") },
  code: "OK",
  output: { answers: [], gradingCapability: capability("grading") },
};
const record = (continuation: Record<string, unknown>): ObservedCall => ({
  tool: "record_skillpilot_verified_recall_results",
  args: {
    learningSessionId: sid,
    gradingCapability: capability("grading"),
    assessments: [{ passed: true }],
  },
  code: "OK",
  output: { receipt: {}, recalled: { passed: 1, failed: 0 }, continuation },
});
const practice: ObservedCall = {
  tool: "start_skillpilot_memory_practice",
  args: { learningSessionId: sid },
  code: "OK",
  output: { cardCount: 1 },
};
const asksConsent = { action: "offerNextStep", consentRequired: true };
const teach = { action: "teachActiveGoal", consentRequired: false };

/** The deviation counter's value for one kind, read from the registry's exposition text. */
async function count(metrics: RuntimeMetrics, kind: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const line = text
    .split("\n")
    .find((l) => l.startsWith("coach_turn_contract_deviations_total{") && l.includes(`"${kind}"`));
  return line ? Number(line.split(" ").pop()) : 0;
}

/** A monitor of this repository's served contract, with its own metrics. */
function monitor(): { monitor: TurnMonitor; metrics: RuntimeMetrics } {
  const metrics = createMetrics();
  const labels = { contractMajor: "1", pluginLine: "skillpilot-coach/v1" };
  let now = 0;
  return {
    // Each call a minute after the previous one: no re-poll window in these scenarios.
    monitor: new TurnMonitor(deriveTurnFacts(toolDescriptors), metrics.deviations, labels, () => {
      now += 120_000;
      return now;
    }),
    metrics,
  };
}

describe("live turn monitor: calls made without the learner's consent (C7, C10, C12, G10, L13)", () => {
  it("recall_recorded_without_consent: the results saved right after the reference answers count, after a fresh context they do not", async () => {
    const { monitor: m, metrics } = monitor();
    // The learner agreed in a message of their own: its turn starts with a fresh context.
    for (const call of [context(6), answers, context(6), record(teach)])
      assert.equal(m.observe(call), undefined, call.tool);
    assert.equal(await count(metrics, "recall_recorded_without_consent"), 0);
    // No context read between the reveal and the save: saved without asking, counted, served.
    m.observe(context(8));
    assert.equal(m.observe(answers), undefined);
    assert.equal(m.observe(record(teach)), "recall_recorded_without_consent");
    assert.equal(await count(metrics, "recall_recorded_without_consent"), 1);
    assert.equal(m.observe(context(10)), "context_after_write");
    assert.equal(m.observe(answers), undefined);
    assert.equal(m.observe(record(teach)), "recall_recorded_without_consent");
    assert.equal(await count(metrics, "recall_recorded_without_consent"), 2);
  });

  it("successor_without_consent: a call right after a continuation that asked for consent counts, after a fresh context it does not", async () => {
    const { monitor: m, metrics } = monitor();
    for (const call of [context(6), answers, context(6), record(asksConsent)]) m.observe(call);
    // The next learner message's fresh context, then the next step: no consent deviation.
    m.observe(context(7));
    assert.equal(m.observe(practice), undefined);
    assert.equal(await count(metrics, "successor_without_consent"), 0);
    // Straight on after the continuation that asked: counted once, the call after it is not.
    for (const call of [context(8), answers, context(8), record(asksConsent)]) m.observe(call);
    assert.equal(m.observe(practice), "successor_without_consent");
    assert.equal(m.observe(practice), undefined);
    assert.equal(await count(metrics, "successor_without_consent"), 1);
  });
});

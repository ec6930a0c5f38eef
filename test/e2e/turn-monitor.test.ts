import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import { connectClient, eras } from "../runtime/support/mcp-clients.js";
import { startFixture } from "../runtime/support/runtime-fixture.js";

/** The deviation counter's samples, by kind, from /metrics. */
async function deviations(origin: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^coach_turn_contract_deviations_total\{([^}]*)\} (\d+)/gm)) {
    const kind = /kind="([^"]+)"/.exec(m[1])?.[1] ?? "";
    assert.match(m[1], /^contractMajor="1",pluginLine="skillpilot-coach\/v1",kind="[a-z_]+"$/);
    out[kind] = Number(m[2]);
  }
  return out;
}

describe("live turn monitor: deviations counted and logged, never refused (C2, C13, G10, L13)", () => {
  for (const era of eras)
    it(`counts a re-poll, a read after a write, a continuation not followed and one altered; ${era}`, async () => {
      const fx = await startFixture({ sessionTtlSeconds: 90 * 86400 });
      const client = await connectClient(fx, era);
      try {
        const d = new CoachDriver(client, fx);
        // A session whose Verified Recall is due; its round up to the terminal write.
        const dueRound = async (learner: string, extraReads: boolean) => {
          const { sid, ctx } = await d.sessionWithMastered(learner, 1);
          if (extraReads) {
            await d.context(sid); // right after a successful write
            await d.context(sid); // a re-poll at the same stateVersion
          }
          d.advanceDays(2);
          await d.master(ctx);
          const started = await d.ok("start_skillpilot_verified_recall", {
            learningSessionId: sid,
          });
          const answers = await d.ok("get_skillpilot_verified_recall_answers", {
            learningSessionId: sid,
            batchCapability: started.batchCapability,
          });
          await d.context(sid); // the learner agrees to saving: a new message, a fresh context
          const recorded: Out = await d.ok("record_skillpilot_verified_recall_results", {
            learningSessionId: sid,
            gradingCapability: answers.gradingCapability,
            assessments: started.batch.items.map(() => ({ passed: true })),
          });
          return { sid, toolCall: recorded.continuation.toolCall };
        };
        const a = await dueRound(`monitor-a-${era}`, true);
        assert.deepEqual(await deviations(fx.server.origin), {
          context_after_write: 1,
          context_repoll: 1,
        });
        const skipped = await d.call("start_skillpilot_memory_practice", {
          learningSessionId: a.sid,
        });
        assert.notEqual(skipped.isError, true);
        const b = await dueRound(`monitor-b-${era}`, false);
        const altered = await d.call(b.toolCall.name, {
          ...b.toolCall.arguments,
          learningSessionId: b.sid,
          expectedStateVersion: b.toolCall.arguments.expectedStateVersion + 1,
        });
        assert.ok(altered.content.length > 0, "answered as ever");
        assert.deepEqual(await deviations(fx.server.origin), {
          context_after_write: 1,
          context_repoll: 1,
          continuation_not_followed: 1,
          continuation_altered: 1,
        });
        // A write after all that is served as ever: the monitor refuses nothing.
        const next = await d.context(b.sid);
        await d.ok("complete_skillpilot_goal", {
          learningSessionId: b.sid,
          expectedStateVersion: next.stateVersion,
          clientRequestId: randomUUID(),
          decision: "needsMorePractice",
        });
        await client.close();
        const lines = (await fx.stopAndReadLog())
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { toolName?: string; turnDeviation?: string });
        assert.deepEqual(
          lines.filter((l) => l.turnDeviation).map((l) => [l.toolName, l.turnDeviation]),
          [
            ["get_skillpilot_learning_context", "context_after_write"],
            ["get_skillpilot_learning_context", "context_repoll"],
            ["start_skillpilot_memory_practice", "continuation_not_followed"],
            ["render_skillpilot_goal_visualization", "continuation_altered"],
          ],
        );
      } finally {
        await client.close().catch(() => undefined);
        await fx.close();
      }
    });

  for (const era of eras)
    it(`counts results saved without consent and a next step started without it; ${era}`, async () => {
      const fx = await startFixture({ sessionTtlSeconds: 90 * 86400 });
      const client = await connectClient(fx, era);
      try {
        const d = new CoachDriver(client, fx);
        // Every goal of the skill mastered: after the recall checkpoint the exam waits.
        const { sid } = await d.sessionWithMastered(`monitor-consent-${era}`, 5);
        d.advanceDays(2);
        const started = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        const answers = await d.ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        assert.deepEqual(await deviations(fx.server.origin), {});
        // Saved in the same turn as the reference answers: counted, and saved as ever.
        const recorded = await d.ok("record_skillpilot_verified_recall_results", {
          learningSessionId: sid,
          gradingCapability: answers.gradingCapability,
          assessments: started.batch.items.map(() => ({ passed: true })),
        });
        assert.deepEqual(recorded.continuation, { action: "offerNextStep", consentRequired: true });
        assert.deepEqual(await deviations(fx.server.origin), {
          recall_recorded_without_consent: 1,
        });
        // Straight on although the continuation asked for the learner's consent: counted, served.
        const practice = await d.call("start_skillpilot_memory_practice", {
          learningSessionId: sid,
        });
        assert.notEqual(practice.isError, true);
        assert.deepEqual(await deviations(fx.server.origin), {
          recall_recorded_without_consent: 1,
          successor_without_consent: 1,
        });
        await client.close();
        const lines = (await fx.stopAndReadLog())
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { toolName?: string; turnDeviation?: string });
        assert.deepEqual(
          lines.filter((l) => l.turnDeviation).map((l) => [l.toolName, l.turnDeviation]),
          [
            ["record_skillpilot_verified_recall_results", "recall_recorded_without_consent"],
            ["start_skillpilot_memory_practice", "successor_without_consent"],
          ],
        );
      } finally {
        await client.close().catch(() => undefined);
        await fx.close();
      }
    });
});

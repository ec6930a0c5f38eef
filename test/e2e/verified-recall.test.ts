import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { logFingerprint } from "../../runtime/observability/session-fingerprint.js";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import {
  connectClient,
  errorCode,
  eras,
  type CoachClient,
} from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture, useServedClient } from "../runtime/support/runtime-fixture.js";

/** Sessions outlive the simulated days between goals. */
const LONG_SESSIONS = { sessionTtlSeconds: 90 * 86400 };

/** Reference answers of the curriculum, by goal id (English sessions). */
async function referenceAnswers(): Promise<Map<string, string>> {
  const doc = JSON.parse(
    await readFile(`${repoRoot}/curricula/skillpilot-basics.curriculum.json`, "utf8"),
  );
  const answers = new Map<string, string>();
  for (const skill of doc.skills)
    for (const goal of skill.goals) answers.set(goal.goalId, goal.recall.answer.en);
  return answers;
}

/**
 * A session whose recall checkpoint is due: goals 1..`mastered` of git-basics mastered, then two
 * days pass and the next goal is mastered, which holds the following goal back for Verified Recall.
 */
async function recallDue(
  d: CoachDriver,
  learner: string,
  mastered = 1,
): Promise<{ sid: string; ctx: Out }> {
  const { sid, ctx } = await d.sessionWithMastered(learner, mastered);
  d.advanceDays(2);
  return { sid, ctx: await d.master(ctx) };
}

describe("Verified Recall: server-side trace of one turn (G10, C12, C13)", () => {
  for (const era of eras) {
    it(
      `start → answers → record → the continuation's render call, and no ` +
        `context read in between or after; ${era}`,
      async () => {
        const fx = await startFixture(LONG_SESSIONS);
        let client: CoachClient | undefined;
        try {
          client = await connectClient(fx, era);
          const d = new CoachDriver(client, fx);
          const { sid, ctx } = await recallDue(d, `trace-${era}`);
          assert.equal(ctx.requiredAction, "offerVerifiedRecall");
          assert.deepEqual(ctx.currentStep, { kind: "recall", dueItems: 1 });
          const setup = d.trace.length;

          // The turn: the model follows only what each result tells it.
          const started = await d.ok("start_skillpilot_verified_recall", {
            learningSessionId: sid,
          });
          const revealed = await d.ok("get_skillpilot_verified_recall_answers", {
            learningSessionId: sid,
            batchCapability: started.batchCapability,
          });
          const recorded = await d.ok("record_skillpilot_verified_recall_results", {
            learningSessionId: sid,
            gradingCapability: revealed.gradingCapability,
            assessments: started.batch.items.map(() => ({ passed: true })),
          });
          const { continuation } = recorded;
          assert.deepEqual(Object.keys(recorded).sort(), ["continuation", "recalled", "receipt"]);
          assert.deepEqual(continuation, {
            action: "renderGoalVisualizationThenTeachActiveGoal",
            consentRequired: false,
            toolCall: {
              name: "render_skillpilot_goal_visualization",
              arguments: {
                goalId: "git-basics.commit",
                expectedStateVersion: recorded.receipt.stateVersion,
              },
            },
          });
          const rendered = await d.ok(continuation.toolCall.name, {
            learningSessionId: sid,
            ...continuation.toolCall.arguments,
          });
          assert.deepEqual(rendered, {
            rendered: true,
            goalId: "git-basics.commit",
            stateVersion: recorded.receipt.stateVersion,
          });

          assert.deepEqual(d.trace.slice(setup), [
            "start_skillpilot_verified_recall",
            "get_skillpilot_verified_recall_answers",
            "record_skillpilot_verified_recall_results",
            "render_skillpilot_goal_visualization",
          ]);
          // What the server saw for this session, from its own log: the same calls and nothing
          // else.
          await client.close();
          client = undefined;
          const fingerprint = logFingerprint(fx.services.logHmacKey, sid);
          const seen = (await fx.stopAndReadLog())
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { sessionFingerprint?: string; toolName?: string })
            .filter((line) => line.sessionFingerprint === fingerprint)
            .map((line) => line.toolName);
          assert.deepEqual(seen, d.trace);
        } finally {
          await client?.close();
          await fx.close();
        }
      },
    );
  }
});

for (const era of eras) {
  describe(`Verified Recall over MCP, ${era}`, () => {
    const served = useServedClient(era, LONG_SESSIONS);
    let d: CoachDriver;
    let answers: Map<string, string>;

    before(async () => {
      d = new CoachDriver(served.client, served.fx);
      answers = await referenceAnswers();
    });

    it(
      "keeps reference answers out of every output before the answers step, " +
        "then returns all of them in batch order (C12, C15)",
      async () => {
        const { sid, ctx } = await recallDue(d, `answers-${era}`, 2);
        const outputs: unknown[] = [ctx];
        outputs.push(await d.call("get_skillpilot_learning_context", { learningSessionId: sid }));
        const started = await d.call("start_skillpilot_verified_recall", {
          learningSessionId: sid,
        });
        outputs.push(
          started,
          await d.call("start_skillpilot_verified_recall", { learningSessionId: sid }),
        );
        outputs.push(await d.call("start_skillpilot_memory_practice", { learningSessionId: sid }));
        const batch = (started.structuredContent as Out).batch.items as Out[];
        assert.deepEqual(
          batch.map((i) => i.goalId),
          ["git-basics.repository", "git-basics.staging"],
        );
        assert.deepEqual(
          batch.map((i) => i.position),
          [1, 2],
        );
        const secret = batch.map((i) => answers.get(i.goalId)!);
        for (const output of outputs)
          for (const answer of secret)
            assert.ok(!JSON.stringify(output).includes(answer), `answer leaked: ${answer}`);

        const revealed = await d.ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: (started.structuredContent as Out).batchCapability,
        });
        assert.deepEqual(
          revealed.answers,
          batch.map((i, n) => ({
            position: n + 1,
            goalId: i.goalId,
            referenceAnswer: answers.get(i.goalId),
          })),
        );
        assert.match(revealed.gradingCapability, /^cap1\./);
      },
    );

    it("returns the same open batch when started again, without writing (C12, G6)", async () => {
      const { sid } = await recallDue(d, `same-${era}`, 2);
      const first = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
      const rows = await d.rows(sid);
      const again = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
      assert.deepEqual(again.batch, first.batch);
      assert.deepEqual(await d.rows(sid), rows, "a repeated start writes nothing");
      // Either capability opens the same batch.
      const a = await d.ok("get_skillpilot_verified_recall_answers", {
        learningSessionId: sid,
        batchCapability: first.batchCapability,
      });
      const b = await d.ok("get_skillpilot_verified_recall_answers", {
        learningSessionId: sid,
        batchCapability: again.batchCapability,
      });
      assert.deepEqual(a.answers, b.answers);
    });

    it("refuses to start when nothing is due with NOT_ELIGIBLE (C12)", async () => {
      const { sid } = await d.sessionWithMastered(`nothing-due-${era}`, 1);
      const rows = await d.rows(sid);
      assert.equal(
        errorCode(await d.call("start_skillpilot_verified_recall", { learningSessionId: sid })),
        "NOT_ELIGIBLE",
      );
      assert.deepEqual(await d.rows(sid), rows);
    });

    it(
      "answers BATCH_INCOMPLETE for fewer or more results than batch items and " +
        "changes no row; the capability stays usable (C12, C14, G5)",
      async () => {
        const { sid } = await recallDue(d, `incomplete-${era}`, 2);
        const started = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        const { gradingCapability } = await d.ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        const before = await d.rows(sid);
        for (const assessments of [
          [{ passed: true }],
          [{ passed: true }, { passed: false }, { passed: true }],
        ]) {
          const result = await d.call("record_skillpilot_verified_recall_results", {
            learningSessionId: sid,
            gradingCapability,
            assessments,
          });
          assert.equal(errorCode(result), "BATCH_INCOMPLETE");
          assert.equal(result.structuredContent, undefined);
          assert.deepEqual(await d.rows(sid), before, "zero mutation");
        }
        await d.ok("record_skillpilot_verified_recall_results", {
          learningSessionId: sid,
          gradingCapability,
          assessments: [{ passed: true }, { passed: false }],
        });
      },
    );

    it(
      "records one atomic receipt without the session id, updates the " +
        "schedules, and replays an exact retry identically; other assessments are " +
        "CAPABILITY_REPLAYED (C7, C13, G6, G7)",
      async () => {
        const { sid } = await recallDue(d, `replay-${era}`, 2);
        const started = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        const { gradingCapability } = await d.ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        const args = {
          learningSessionId: sid,
          gradingCapability,
          assessments: [{ passed: true }, { passed: false }],
        };
        const first = await d.call("record_skillpilot_verified_recall_results", args);
        assert.equal(first.isError, undefined, JSON.stringify(first));
        const out = first.structuredContent as Out;
        assert.equal(out.receipt.operation, "record_skillpilot_verified_recall_results");
        assert.ok(
          !JSON.stringify(out.receipt).includes(sid),
          "the receipt does not echo the session id",
        );
        assert.deepEqual(out.recalled, { passed: 1, failed: 1 });
        assert.equal(
          Object.keys(out).filter(
            (k) => k === "continuation" || k === "requiredAction" || k === "instruction",
          ).length,
          1,
          "exactly one imperative",
        );

        const after = await d.rows(sid);
        const state = JSON.parse(after.state.state_json);
        assert.equal(after.state.state_version, out.receipt.stateVersion);
        assert.equal(state.recallBatch, null);
        const now = served.fx.services.now().getTime();
        const repo = state.recallSchedules["git-basics.repository"];
        const staging = state.recallSchedules["git-basics.staging"];
        assert.deepEqual([repo.repetitions, repo.lapses, repo.intervalDays], [1, 0, 1]);
        assert.deepEqual([staging.repetitions, staging.lapses, staging.intervalDays], [0, 1, 1]);
        for (const s of [repo, staging]) assert.ok(Date.parse(s.dueAt) > now);

        const again = await d.call("record_skillpilot_verified_recall_results", args);
        assert.equal(
          JSON.stringify(again),
          JSON.stringify(first),
          "exact replay: identical result",
        );
        const other = await d.call("record_skillpilot_verified_recall_results", {
          ...args,
          assessments: [{ passed: false }, { passed: true }],
        });
        assert.equal(errorCode(other), "CAPABILITY_REPLAYED");
        assert.deepEqual(await d.rows(sid), after, "replays change nothing");
        assert.equal(
          after.receipts.filter(
            (r: Out) => r.operation === "record_skillpilot_verified_recall_results",
          ).length,
          1,
        );

        // A second grading capability of the already recorded batch cannot record it again.
        const stale = await d.call("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        assert.equal(errorCode(stale), "CAPABILITY_STALE");
      },
    );

    it(
      "continues with teachActiveGoal, no render, when the goal was already " +
        "active before the recall (C13)",
      async () => {
        const { sid, ctx } = await d.sessionWithMastered(`mid-goal-${era}`, 1);
        d.advanceDays(2);
        assert.equal(
          ctx.requiredAction,
          "teachActiveGoal",
          "a goal stays active; recall is optional here",
        );
        assert.ok(
          (await d.context(sid)).allowedActions.includes("start_skillpilot_verified_recall"),
        );
        const started = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        const { gradingCapability } = await d.ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        const out = await d.ok("record_skillpilot_verified_recall_results", {
          learningSessionId: sid,
          gradingCapability,
          assessments: [{ passed: true }],
        });
        assert.deepEqual(out.continuation, { action: "teachActiveGoal", consentRequired: false });
        const next = await d.context(sid);
        assert.equal(next.currentStep.goalId, ctx.currentStep.goalId);
      },
    );
  });
}

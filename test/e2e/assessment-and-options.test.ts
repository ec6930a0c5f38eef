import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import { errorCode, eras } from "../runtime/support/mcp-clients.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";

/** git-basics has five goals; mastering all of them unlocks its exam. */
const GIT_BASICS_GOALS = 5;

for (const era of eras) {
  describe(`assessment and options over MCP, ${era}`, () => {
    const served = useServedClient(era);
    let d: CoachDriver;
    before(() => {
      d = new CoachDriver(served.client, served.fx);
    });

    const score = (ctx: Out, value: number, clientRequestId = randomUUID()) =>
      d.call("record_skillpilot_assessment_score", {
        learningSessionId: ctx.learningSessionId,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId,
        assessmentCapability: ctx.currentStep.assessmentCapability,
        score: value,
      });

    it(
      "unlocks a skill's exam only when all its goals are mastered; the context " +
        "then carries assessmentCapability and maxScore (C1, C7)",
      async () => {
        const almost = await d.sessionWithMastered(`exam-locked-${era}`, GIT_BASICS_GOALS - 1);
        assert.equal(almost.ctx.requiredAction, "teachActiveGoal");
        assert.ok(!almost.ctx.allowedActions.includes("record_skillpilot_assessment_score"));

        const { ctx } = await d.sessionWithMastered(`exam-open-${era}`, GIT_BASICS_GOALS);
        assert.equal(ctx.requiredAction, "takeAssessment");
        assert.deepEqual(ctx.allowedActions, [
          "record_skillpilot_assessment_score",
          "start_skillpilot_memory_practice",
        ]);
        assert.equal(ctx.currentStep.kind, "assessment");
        assert.equal(ctx.currentStep.skillId, "git-basics");
        assert.equal(ctx.currentStep.maxScore, 100);
        assert.match(ctx.currentStep.assessmentCapability, /^cap1\./);
        assert.equal(ctx.options, undefined, "one imperative: no options next to the exam");
      },
    );

    it(
      "answers SCORE_OUT_OF_RANGE above maxScore and changes no row; a score " +
        "beyond the schema bound is INVALID_INPUT (C7, C14)",
      async () => {
        const { sid, ctx } = await d.sessionWithMastered(`exam-range-${era}`, GIT_BASICS_GOALS);
        const before = await d.rows(sid);
        assert.equal(errorCode(await score(ctx, 101)), "SCORE_OUT_OF_RANGE");
        assert.equal(errorCode(await score(ctx, 1001)), "INVALID_INPUT");
        assert.deepEqual(await d.rows(sid), before, "zero mutation, the capability stays unspent");
        const ok = await score(ctx, 100);
        assert.equal(ok.isError, undefined, JSON.stringify(ok));
      },
    );

    it(
      "records the score with a receipt and the successor context; an exact " +
        "retry replays, the capability is single-use (C7, G6, G7)",
      async () => {
        const { sid, ctx } = await d.sessionWithMastered(`exam-pass-${era}`, GIT_BASICS_GOALS);
        const key = randomUUID();
        const first = await score(ctx, 80, key);
        const out = first.structuredContent as Out;
        assert.equal(out.passed, true);
        assert.equal(out.receipt.operation, "record_skillpilot_assessment_score");
        assert.equal(out.receipt.stateVersion, ctx.stateVersion + 1);
        assert.equal(out.successor.requiredAction, "chooseOption");
        assert.deepEqual(
          out.successor.options.map((o: Out) => o.kind),
          ["focusSkill", "focusSkill"],
        );
        const exams = JSON.parse((await d.rows(sid)).state.state_json).exams;
        assert.deepEqual(
          { ...exams["git-basics"], recordedAt: undefined },
          { score: 80, maxScore: 100, passed: true, recordedAt: undefined },
        );

        assert.equal(JSON.stringify(await score(ctx, 80, key)), JSON.stringify(first));
        const rows = await d.rows(sid);
        assert.equal(errorCode(await score(ctx, 80)), "CAPABILITY_REPLAYED");
        assert.equal(
          errorCode(await score({ ...ctx, stateVersion: out.receipt.stateVersion }, 80)),
          "CAPABILITY_STALE",
        );
        assert.deepEqual(await d.rows(sid), rows);
      },
    );

    it("closes the exam with passed:false for a low score and moves on (C1)", async () => {
      const { ctx } = await d.sessionWithMastered(`exam-fail-${era}`, GIT_BASICS_GOALS);
      const out = (await score(ctx, 59)).structuredContent as Out;
      assert.equal(out.passed, false);
      assert.equal(out.successor.requiredAction, "chooseOption");
    });

    it(
      "publishes a small fresh option set; a payload from an older set is " +
        "OPTION_STALE, one from another session CAPABILITY_INVALID (C14)",
      async () => {
        const { ctx } = await d.sessionWithMastered(`options-${era}`, GIT_BASICS_GOALS);
        const choice = (await score(ctx, 90)).structuredContent as Out;
        const offered = choice.successor;
        assert.ok(offered.options.length >= 2 && offered.options.length <= 4);
        for (const o of offered.options) assert.match(o.payload, /^opt1\./);
        const chosen = await d.choose(offered, 0);
        assert.equal(chosen.requiredAction, "teachActiveGoal");
        // A payload sent for this session at its current state version.
        const chooseNow = (option: string) =>
          d.call("choose_skillpilot_option", {
            learningSessionId: offered.learningSessionId,
            expectedStateVersion: chosen.stateVersion,
            clientRequestId: randomUUID(),
            option,
          });
        const stale = await chooseNow(offered.options[1].payload);
        assert.equal(errorCode(stale), "OPTION_STALE");

        const other = await d.context(await served.fx.newSession(`options-other-${era}`));
        const foreign = await chooseNow(other.options[0].payload);
        assert.equal(errorCode(foreign), "CAPABILITY_INVALID");
      },
    );
  });
}

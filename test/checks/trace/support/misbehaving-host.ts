import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { type Host, ok, type Out, type Surroundings } from "./scripted-host.js";

/** A hold on the next call of one handler, released by the conversation (see the test). */
export interface Hold {
  /** Hold the next call; resolves once that call has reached the handler. */
  arm(): Promise<void>;
  release(): void;
}

const sidOf = (env: Surroundings) => ({ learningSessionId: env.sid });
const envelope = (ctx: Out) => ({
  learningSessionId: ctx.learningSessionId,
  expectedStateVersion: ctx.stateVersion,
  clientRequestId: randomUUID(),
});
const fresh = (ctx: Out, decision = "needsMorePractice") => ({ ...envelope(ctx), decision });
const complete = "complete_skillpilot_goal";

/**
 * A host that breaks the turn contract once per rule, each in a turn of its own, among turns that
 * keep it (to move the learner on to the next Verified Recall). Returns, in order, the turn number
 * and the rule each violation must be found as.
 */
export async function misbehavingConversation(
  h: Host,
  env: Surroundings,
  hold: Hold,
): Promise<[number, string][]> {
  const expected: [number, string][] = [];
  let turn = 0;
  const read = () => ok(h, "get_skillpilot_learning_context", sidOf(env));
  const next = async (rule?: string) => {
    await h.learnerMessage();
    turn++;
    if (rule) expected.push([turn, rule]);
  };
  const keepOn = async () => {
    // Correct turns until a Verified Recall is due.
    for (;;) {
      env.advanceDays(2);
      await next();
      const done = await ok(h, complete, fresh(await read(), "achieved"));
      if (done.successor.requiredAction === "offerVerifiedRecall") return;
    }
  };
  const recallUpToRecord = async (): Promise<Out> => {
    await next();
    await read();
    const started = await ok(h, "start_skillpilot_verified_recall", sidOf(env));
    await next();
    await read();
    const answers = await ok(h, "get_skillpilot_verified_recall_answers", {
      ...sidOf(env),
      batchCapability: started.batchCapability,
    });
    return { started, answers };
  };
  const record = (round: Out) =>
    ok(h, "record_skillpilot_verified_recall_results", {
      ...sidOf(env),
      gradingCapability: round.answers.gradingCapability,
      assessments: round.started.batch.items.map(() => ({ passed: true })),
    });

  await next("TRACE_NO_FRESH_CONTEXT");
  await h.call("start_skillpilot_memory_practice", sidOf(env));

  await next();
  const first = await read();
  await ok(h, "choose_skillpilot_option", { ...envelope(first), option: first.options[0].payload });

  await next("TRACE_CONTEXT_POLLING");
  await read();
  await read();

  await next("TRACE_CONTEXT_AFTER_WRITE");
  await ok(h, complete, fresh(await read(), "achieved"));
  await read();

  await next("TRACE_SECOND_MUTATION");
  const once = await ok(h, complete, fresh(await read()));
  await h.call(complete, fresh(once.successor));

  await next("TRACE_PROSE_ARGUMENT");
  await h.call(complete, fresh(await read(), "I think I got it now"));

  await next("TRACE_UNISSUED_VALUE");
  const ctx = await read();
  await h.call("render_skillpilot_goal_visualization", {
    ...sidOf(env),
    goalId: "made-up-goal",
    expectedStateVersion: ctx.stateVersion,
  });

  await next();
  const reused = fresh(await read());
  await ok(h, complete, reused);
  await next("TRACE_KEY_REUSED");
  const later = await read();
  await h.call(complete, { ...fresh(later), clientRequestId: reused.clientRequestId });

  await next("TRACE_CONFLICT_NOT_RELOADED");
  const before = await read();
  await h.call(complete, { ...fresh(before), expectedStateVersion: before.stateVersion - 1 });
  await ok(h, complete, fresh(before));

  await next("TRACE_CALL_AFTER_STOP");
  const a = await read();
  await h.call(complete, { ...fresh(a), expectedStateVersion: a.stateVersion - 1 });
  const b = await read();
  await h.call(complete, { ...fresh(b), expectedStateVersion: b.stateVersion - 1 });
  await read();

  await next("TRACE_RETRY_NEW_KEY");
  const args = fresh(await read());
  const reached = hold.arm();
  const held = h.call(complete, args);
  await reached;
  await ok(h, complete, { ...args, clientRequestId: randomUUID() });
  hold.release();
  assert.match((await held).content[0]?.text ?? "", /^STATE_CONFLICT:/);

  // One Verified Recall round whose continuation is followed late, altered, then retried.
  await keepOn();
  const round = await recallUpToRecord();
  await next("TRACE_CONTINUATION_NOT_FOLLOWED");
  expected.push([turn, "TRACE_CONTINUATION_ALTERED"], [turn, "TRACE_CONTINUATION_REPEATED"]);
  await read();
  const { toolCall } = (await record(round)).continuation;
  await h.call("start_skillpilot_memory_practice", sidOf(env));
  await h.call(toolCall.name, {
    ...toolCall.arguments,
    ...sidOf(env),
    expectedStateVersion: toolCall.arguments.expectedStateVersion + 1,
  });
  await h.call(toolCall.name, { ...toolCall.arguments, ...sidOf(env) });

  // On through the skill, each turn keeping the contract, except: the first recall round saves the
  // results in the turn of the reference answers, and the round whose continuation asks for
  // consent (the exam is next) goes straight on in that turn.
  let savedWithoutConsent = false;
  for (let rounds = 0; rounds < 40; rounds++) {
    await next();
    const ctx = await read();
    if (ctx.requiredAction === "teachActiveGoal") {
      await ok(h, complete, fresh(ctx, "achieved"));
      continue;
    }
    if (ctx.requiredAction === "chooseOption") {
      await ok(h, "choose_skillpilot_option", { ...envelope(ctx), option: ctx.options[0].payload });
      continue;
    }
    if (ctx.requiredAction !== "offerVerifiedRecall") {
      env.advanceDays(7); // an exam waits: let the mastered goals come due
      continue;
    }
    const started = await ok(h, "start_skillpilot_verified_recall", sidOf(env));
    await next(savedWithoutConsent ? undefined : "TRACE_RECALL_RECORDED_WITHOUT_CONSENT");
    await read();
    const answers = await ok(h, "get_skillpilot_verified_recall_answers", {
      ...sidOf(env),
      batchCapability: started.batchCapability,
    });
    if (savedWithoutConsent) {
      await next();
      await read();
    }
    savedWithoutConsent = true;
    const { continuation } = await record({ started, answers });
    if (continuation.toolCall)
      await ok(h, continuation.toolCall.name, {
        ...continuation.toolCall.arguments,
        ...sidOf(env),
      });
    else if (continuation.consentRequired === true) {
      expected.push([turn, "TRACE_SUCCESSOR_WITHOUT_CONSENT"]);
      await h.call("start_skillpilot_memory_practice", sidOf(env));
      return expected;
    }
  }
  assert.fail("no recall round ended in a continuation that asks for consent");
}

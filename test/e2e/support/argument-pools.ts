import type { CoachDriver, Out } from "../../runtime/support/coach-driver.js";
import type { Pools } from "./tool-arguments.js";

/**
 * Real values for schema-derived tool arguments, from sessions driven on a fresh server: a new
 * learner (an open choice), one with a goal active, one whose recall is due with an open batch and
 * its grading capability, one with a finished skill (assessment), and a memory practice deck.
 * `label` keeps the learners of several calls on one server apart. Moves the server's clock.
 */
export async function seedArgumentPools(d: CoachDriver, label: string): Promise<Pools> {
  const pools: Pools = {};
  const add = (name: string, value: unknown) => {
    pools[name] = [...(pools[name] ?? []), value];
  };
  const fresh = await d.fx.newSession(`fuzz-fresh-${label}`);
  const open = await d.context(fresh);
  for (const o of open.options) add("option", o.payload);
  const active = await d.sessionWithMastered(`fuzz-active-${label}`, 0);
  const { sid: recallSid, ctx } = await d.sessionWithMastered(`fuzz-recall-${label}`, 1);
  d.advanceDays(2);
  await d.master(ctx);
  const started = await d.ok("start_skillpilot_verified_recall", {
    learningSessionId: recallSid,
  });
  add("batchCapability", started.batchCapability);
  add(
    "gradingCapability",
    (
      await d.ok("get_skillpilot_verified_recall_answers", {
        learningSessionId: recallSid,
        batchCapability: started.batchCapability,
      })
    ).gradingCapability,
  );
  const exam = await d.sessionWithMastered(`fuzz-exam-${label}`, 5);
  if (exam.ctx.currentStep?.assessmentCapability)
    add("assessmentCapability", exam.ctx.currentStep.assessmentCapability);
  const deck = await d.call("start_skillpilot_memory_practice", {
    learningSessionId: active.sid,
  });
  const practice = (deck._meta as Out | undefined)?.["skillpilot/memoryPractice"];
  if (practice) add("practiceCapability", practice.practiceCapability);
  for (const sid of [fresh, active.sid, recallSid, exam.sid]) {
    add("learningSessionId", sid);
    add("expectedStateVersion", (await d.context(sid)).stateVersion);
  }
  for (const goalId of ["git-basics.repository", "git-basics.staging", "git-basics.commit"])
    add("goalId", goalId);
  return pools;
}

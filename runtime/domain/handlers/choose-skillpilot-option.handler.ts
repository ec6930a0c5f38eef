import { CapabilityError, openOptionPayload } from "../../capability/index.js";
import { CoachError } from "../../errors.js";
import { writeHandler } from "../write-pipeline.js";
import { buildFullContext, openChoices, type OptionChoice } from "../full-context.js";
import { masteredGoals } from "../learner-state.js";
import { frontier } from "../learning-rules.js";

const sameChoice = (a: OptionChoice, b: Record<string, unknown>) =>
  a.kind === b.kind && (a.kind === "focusSkill" ? a.skillId === b.skillId : a.goalId === b.goalId);

/**
 * Write: apply a choice copied verbatim from the latest context. The payload must open for this
 * session and state version and still be one of the open choices; focusing a skill activates its
 * first teachable goal, choosing a goal activates it.
 */
export const chooseSkillpilotOption = writeHandler({
  tool: "choose_skillpilot_option",
  apply(input, { deps, session, snapshot, now }) {
    let claim: Record<string, unknown>;
    try {
      claim = openOptionPayload(deps.keyring, input.option, {
        learningSessionId: session.sessionId,
        stateVersion: snapshot.stateVersion,
        policyRevision: session.policyRevisionInForce,
        now,
      });
    } catch (error) {
      if (error instanceof CapabilityError)
        throw new CoachError(
          error.code === "CAPABILITY_STALE" ? "OPTION_STALE" : "CAPABILITY_INVALID",
        );
      throw error;
    }
    const choice = openChoices(deps.curriculum, snapshot).find((c) => sameChoice(c, claim));
    if (!choice) throw new CoachError("OPTION_STALE");
    if (choice.kind === "nextGoal")
      return { state: { ...snapshot.state, activeGoalId: choice.goalId }, value: undefined };
    const first = frontier(deps.curriculum, masteredGoals(snapshot)).find(
      (g) => g.skillId === choice.skillId,
    );
    if (!first) throw new CoachError("OPTION_STALE");
    return {
      state: { ...snapshot.state, focusSkillId: choice.skillId, activeGoalId: first.goalId },
      value: undefined,
    };
  },
  respond: ({ deps, session, snapshot, now }) => buildFullContext(deps, session, snapshot, now),
});

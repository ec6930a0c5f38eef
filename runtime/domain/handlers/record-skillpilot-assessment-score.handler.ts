import { CoachError } from "../../errors.js";
import { writeHandler } from "../write-pipeline.js";
import { checkpointPending } from "../checkpoints.js";
import { examMaxScore, examPassScore, pendingExam } from "../exams.js";
import { buildFullContext } from "../full-context.js";
import { masteredGoals, type LearnerState } from "../learner-state.js";
import { advanceAfterMastery } from "../learning-rules.js";
import { checkCapability } from "../workflow-capabilities.js";

/**
 * Write: the integer score of the unlocked skill assessment (C7). The assessmentCapability from
 * the full context names the skill and its maxScore and is bound to that context's state version;
 * it is single-use. A score above maxScore is SCORE_OUT_OF_RANGE and saves nothing. Recording
 * closes the exam (passed or not) and lets the backend pick the next step.
 */
export const recordSkillpilotAssessmentScore = writeHandler({
  tool: "record_skillpilot_assessment_score",
  authorize: (input, scope) =>
    checkCapability(scope, "assessment", input.assessmentCapability, {
      stateVersion: input.expectedStateVersion,
    }),
  spends: (claims) => claims,
  apply(input, { deps, snapshot, now, auth: claims }) {
    const skillId = String(claims.d?.skillId);
    const maxScore = Number(claims.d?.maxScore);
    const mastered = masteredGoals(snapshot);
    if (pendingExam(deps.curriculum, snapshot.state, mastered) !== skillId)
      throw new CoachError("NOT_ELIGIBLE");
    if (!Number.isInteger(maxScore) || input.score > maxScore)
      throw new CoachError("SCORE_OUT_OF_RANGE");
    const passed = input.score * examMaxScore >= examPassScore * maxScore;
    let state: LearnerState = {
      ...snapshot.state,
      exams: {
        ...(snapshot.state.exams ?? {}),
        [skillId]: { score: input.score, maxScore, passed, recordedAt: now.toISOString() },
      },
    };
    if (!state.activeGoalId)
      state = advanceAfterMastery(
        deps.curriculum,
        state,
        mastered,
        checkpointPending(deps.curriculum, { state, progress: snapshot.progress }, mastered, now),
      );
    return { state, value: passed };
  },
  respond: ({ deps, session, snapshot, now, receipt, value: passed }) => ({
    receipt,
    passed,
    successor: buildFullContext(deps, session, snapshot, now),
  }),
});

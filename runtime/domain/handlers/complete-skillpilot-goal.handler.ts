import { CoachError } from "../../errors.js";
import { type WriteRule, writeHandler } from "../write-pipeline.js";
import { checkpointPending } from "../checkpoints.js";
import { buildFullContext } from "../full-context.js";
import { masteredGoals, type GoalProgress } from "../learner-state.js";
import { advanceAfterMastery, skillMastery } from "../learning-rules.js";

/**
 * Write: the structured completion decision for the active goal (C6). `achieved` masters it and
 * lets the backend pick the successor step; `needsMorePractice` records the attempt and keeps
 * the goal active. Only the active goal can be completed. The rule is exported so a replacement
 * tool can reuse its domain under its own name (its receipts then name the replacement).
 */
export const completeGoalRule: WriteRule<"complete_skillpilot_goal", undefined, string> = {
  tool: "complete_skillpilot_goal",
  apply(input, { deps, snapshot, now }) {
    const goalId = snapshot.state.activeGoalId;
    const goal = goalId ? deps.curriculum.goal(goalId) : undefined;
    if (!goal) throw new CoachError("NOT_ELIGIBLE");
    const previous = snapshot.progress.get(goal.goalId);
    const achieved = input.decision === "achieved";
    const progress: GoalProgress = {
      goalId: goal.goalId,
      status: achieved ? "mastered" : "practicing",
      attempts: (previous?.attempts ?? 0) + 1,
      masteredAt: achieved ? now.toISOString() : null,
    };
    if (!achieved) return { state: snapshot.state, progress: [progress], value: goal.goalId };
    const mastered = new Set([...masteredGoals(snapshot), goal.goalId]);
    const hold = checkpointPending(deps.curriculum, snapshot, mastered, now);
    return {
      state: advanceAfterMastery(deps.curriculum, snapshot.state, mastered, hold),
      progress: [progress],
      value: goal.goalId,
    };
  },
  respond({ deps, session, snapshot, now, receipt, value: goalId }) {
    const goal = deps.curriculum.goal(goalId)!;
    const mastered = masteredGoals(snapshot);
    const status = mastered.has(goalId)
      ? "mastered"
      : snapshot.state.activeGoalId === goalId
        ? "active"
        : "available";
    return {
      receipt,
      goal: { goalId, skillId: goal.skillId, title: goal.title[session.locale], status },
      mastery: skillMastery(deps.curriculum, goal.skillId, mastered),
      successor: buildFullContext(deps, session, snapshot, now),
    };
  },
};

/** The handler of `complete_skillpilot_goal`. */
export const completeSkillpilotGoal = writeHandler(completeGoalRule);

import type { Continuation } from "../../generated/types.gen.js";
import type { Curriculum } from "./curriculum.js";
import { decideNextStep } from "./full-context.js";
import type { LearnerSnapshot } from "./learner-state.js";

/**
 * The one continuation of a completed specialized workflow (C10, C13), from the committed state.
 * When the write activated a goal that has a visualization, the only continuation is to render it
 * — with a server-filled call bound to that goal and the new state version — and then teach it.
 */
export function continuationAfter(
  curriculum: Curriculum,
  activeBefore: string | null,
  after: LearnerSnapshot,
  now: Date,
): Continuation {
  const step = decideNextStep(curriculum, after, now);
  if (step.kind === "teach") {
    if (step.goal.goalId !== activeBefore && step.goal.visualization)
      return {
        action: "renderGoalVisualizationThenTeachActiveGoal",
        consentRequired: false,
        toolCall: {
          name: "render_skillpilot_goal_visualization",
          arguments: { goalId: step.goal.goalId, expectedStateVersion: after.stateVersion },
        },
      };
    return { action: "teachActiveGoal", consentRequired: false };
  }
  if (step.kind === "complete") return { action: "curriculumComplete", consentRequired: false };
  // A choice, another checkpoint: the learner decides, on the next message's fresh context.
  return { action: "offerNextStep", consentRequired: true };
}

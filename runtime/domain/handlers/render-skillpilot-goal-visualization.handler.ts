import type { ToolHandler } from "../../../generated/handlers.gen.js";
import { CoachError } from "../../errors.js";
import type { CallContext } from "../call-context.js";
import type { Curriculum, Goal } from "../curriculum.js";
import {
  type GoalVisualizationInput,
  renderGoalVisualization,
  renderNarrowGoalVisualization,
} from "../goal-visualization.js";
import { readHandler } from "../read-pipeline.js";
import type { Locale } from "../../i18n/index.js";

/** `_meta` key the goal-visualization widget reads (docs/ui-widgets.md). */
const goalVisualizationMetaKey = "skillpilot/goalVisualization";

/** The curriculum facts the image shows for the active goal. */
function imageOf(curriculum: Curriculum, goal: Goal, locale: Locale): GoalVisualizationInput {
  const skill = curriculum.skill(goal.skillId)!;
  return {
    goalId: goal.goalId,
    title: goal.title[locale],
    skillTitle: skill.title[locale],
    prerequisites: goal.prerequisites.map((id) => curriculum.goal(id)!.title[locale]),
    status: "active",
    position: {
      index: skill.goals.findIndex((g) => g.goalId === goal.goalId) + 1,
      total: skill.goals.length,
    },
    locale,
  };
}

/**
 * Read, UI-bound (L9): the image of the goal, only for the authorized pair — the active goal, if
 * it has a visualization, at the current state version. The model gets a narrow renderer receipt
 * (never a full context, C2); the SVG goes to the widget in `_meta` (C9).
 */
export const renderSkillpilotGoalVisualization: ToolHandler<
  "render_skillpilot_goal_visualization",
  CallContext
> = readHandler((input, { deps, session, snapshot }, ctx) => {
  if (input.expectedStateVersion !== snapshot.stateVersion) throw new CoachError("STATE_CONFLICT");
  const goal = deps.curriculum.goal(input.goalId);
  if (!goal || snapshot.state.activeGoalId !== goal.goalId || !goal.visualization)
    throw new CoachError("NOT_ELIGIBLE");
  const image = imageOf(deps.curriculum, goal, session.locale);
  // Two layouts of the same facts: the widget shows the narrow one in a narrow frame.
  ctx.widgetMeta = {
    [goalVisualizationMetaKey]: {
      svg: renderGoalVisualization(image),
      narrowSvg: renderNarrowGoalVisualization(image),
    },
  };
  return { rendered: true, goalId: goal.goalId, stateVersion: snapshot.stateVersion };
});

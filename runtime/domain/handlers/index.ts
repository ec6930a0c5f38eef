import type { CoachHandlers } from "../../../generated/handlers.gen.js";
import type { CallContext } from "../../services.js";
import { chooseSkillpilotOption } from "./choose-skillpilot-option.handler.js";
import { completeSkillpilotGoal } from "./complete-skillpilot-goal.handler.js";
import { getSkillpilotLearningContext } from "./get-skillpilot-learning-context.handler.js";
import { notWired } from "./not-wired.js";

/** Every tool's handler, keyed by tool name; writes are rules run by the shared write pipeline. */
export const coachHandlers: CoachHandlers<CallContext> = {
  get_skillpilot_learning_context: getSkillpilotLearningContext,
  choose_skillpilot_option: chooseSkillpilotOption,
  complete_skillpilot_goal: completeSkillpilotGoal,
  get_skillpilot_verified_recall_answers: notWired("get_skillpilot_verified_recall_answers"),
  record_skillpilot_assessment_score: notWired("record_skillpilot_assessment_score"),
  record_skillpilot_verified_recall_results: notWired("record_skillpilot_verified_recall_results"),
  render_skillpilot_goal_visualization: notWired("render_skillpilot_goal_visualization"),
  review_skillpilot_memory_practice_card: notWired("review_skillpilot_memory_practice_card"),
  start_skillpilot_memory_practice: notWired("start_skillpilot_memory_practice"),
  start_skillpilot_verified_recall: notWired("start_skillpilot_verified_recall"),
};

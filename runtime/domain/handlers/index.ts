import type { CoachHandlers } from "../../../generated/handlers.gen.js";
import type { CallContext } from "../call-context.js";
import { chooseSkillpilotOption } from "./choose-skillpilot-option.handler.js";
import { completeSkillpilotGoal } from "./complete-skillpilot-goal.handler.js";
import { getSkillpilotLearningContext } from "./get-skillpilot-learning-context.handler.js";
import { getSkillpilotVerifiedRecallAnswers } from "./get-skillpilot-verified-recall-answers.handler.js";
import { recordSkillpilotAssessmentScore } from "./record-skillpilot-assessment-score.handler.js";
import { recordSkillpilotVerifiedRecallResults } from "./record-skillpilot-verified-recall-results.handler.js";
import { renderSkillpilotGoalVisualization } from "./render-skillpilot-goal-visualization.handler.js";
import { reviewSkillpilotMemoryPracticeCard } from "./review-skillpilot-memory-practice-card.handler.js";
import { startSkillpilotMemoryPractice } from "./start-skillpilot-memory-practice.handler.js";
import { startSkillpilotVerifiedRecall } from "./start-skillpilot-verified-recall.handler.js";

/** Every tool's handler, keyed by tool name; writes are rules run by the shared write pipeline. */
export const coachHandlers: CoachHandlers<CallContext> = {
  get_skillpilot_learning_context: getSkillpilotLearningContext,
  choose_skillpilot_option: chooseSkillpilotOption,
  complete_skillpilot_goal: completeSkillpilotGoal,
  get_skillpilot_verified_recall_answers: getSkillpilotVerifiedRecallAnswers,
  record_skillpilot_assessment_score: recordSkillpilotAssessmentScore,
  record_skillpilot_verified_recall_results: recordSkillpilotVerifiedRecallResults,
  render_skillpilot_goal_visualization: renderSkillpilotGoalVisualization,
  review_skillpilot_memory_practice_card: reviewSkillpilotMemoryPracticeCard,
  start_skillpilot_memory_practice: startSkillpilotMemoryPractice,
  start_skillpilot_verified_recall: startSkillpilotVerifiedRecall,
};

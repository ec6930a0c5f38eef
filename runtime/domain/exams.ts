import type { Curriculum } from "./curriculum.js";
import type { LearnerState } from "./learner-state.js";

/** Every skill assessment is scored out of this many points. */
export const examMaxScore = 100;
/** The lowest score that passes (60 %). */
export const examPassScore = 60;

/** True when every goal of the skill is mastered: its exam is unlocked. */
export function examUnlocked(
  curriculum: Curriculum,
  skillId: string,
  mastered: ReadonlySet<string>,
): boolean {
  const goals = curriculum.skill(skillId)?.goals ?? [];
  return goals.length > 0 && goals.every((g) => mastered.has(g.goalId));
}

/**
 * The skill whose exam is unlocked and not yet taken: the focus skill first, then the others in
 * curriculum order. An exam is taken once; the recorded score says whether it was passed.
 */
export function pendingExam(
  curriculum: Curriculum,
  state: LearnerState,
  mastered: ReadonlySet<string>,
): string | undefined {
  const taken = state.exams ?? {};
  const order = [state.focusSkillId, ...curriculum.skills.map((s) => s.skillId)].filter(
    (id): id is string => !!id,
  );
  return order.find((skillId) => !taken[skillId] && examUnlocked(curriculum, skillId, mastered));
}

import type { Curriculum, Goal } from "./curriculum.js";
import type { LearnerState } from "./learner-state.js";

/** Goals not yet mastered whose prerequisites all are: what can be taught next. */
export function frontier(curriculum: Curriculum, mastered: ReadonlySet<string>): Goal[] {
  return curriculum.goals.filter(
    (g) => !mastered.has(g.goalId) && g.prerequisites.every((p) => mastered.has(p)),
  );
}

/** Skills that still have a teachable goal, in curriculum order. */
export function skillsWithFrontier(
  curriculum: Curriculum,
  mastered: ReadonlySet<string>,
): string[] {
  const open = new Set(frontier(curriculum, mastered).map((g) => g.skillId));
  return curriculum.skills.map((s) => s.skillId).filter((id) => open.has(id));
}

/**
 * The backend decides the next step after a goal is mastered (C1): with exactly one teachable goal
 * in the focus skill (or, with the focus skill done, exactly one anywhere) it becomes active at
 * once; otherwise no goal is active and the full context offers a choice (next goal, or another
 * focus skill). With `hold`, no goal is activated: a checkpoint is due first (see
 * `checkpointPending`).
 */
export function advanceAfterMastery(
  curriculum: Curriculum,
  state: LearnerState,
  mastered: ReadonlySet<string>,
  hold = false,
): LearnerState {
  // A checkpoint (due Verified Recall, an unlocked exam) comes first; the next goal waits for it.
  if (hold) return { ...state, activeGoalId: null };
  const open = frontier(curriculum, mastered);
  const inFocus = open.filter((g) => g.skillId === state.focusSkillId);
  if (inFocus.length === 1) return { ...state, activeGoalId: inFocus[0].goalId };
  // Nothing left in the focus skill and only one goal anywhere: there is no real choice to offer.
  if (inFocus.length === 0 && open.length === 1)
    return { ...state, focusSkillId: open[0].skillId, activeGoalId: open[0].goalId };
  return { ...state, activeGoalId: null };
}

/** Mastery of one skill: how many of its goals are mastered. */
export function skillMastery(
  curriculum: Curriculum,
  skillId: string,
  mastered: ReadonlySet<string>,
) {
  const goals = curriculum.skill(skillId)?.goals ?? [];
  const masteredGoals = goals.filter((g) => mastered.has(g.goalId)).length;
  return {
    masteredGoals,
    totalGoals: goals.length,
    skillMastered: goals.length > 0 && masteredGoals === goals.length,
  };
}

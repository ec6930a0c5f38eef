import type { GoalProgress, LearnerSnapshot, LearnerState } from "../domain/ports/coach-store.js";

/** A progress row as both dialects fold it into the learner read: `[goal, status, attempts, mastered]`. */
export type ProgressTuple = [
  goalId: string,
  status: GoalProgress["status"],
  attempts: number,
  masteredAt: string | null,
];

/** The snapshot of a learner's state row and progress tuples (both dialects). */
export function toSnapshot(
  learnerId: number,
  stateVersion: number,
  stateJson: string,
  tuples: readonly ProgressTuple[],
): LearnerSnapshot {
  const progress = new Map<string, GoalProgress>();
  for (const [goalId, status, attempts, masteredAt] of tuples)
    progress.set(goalId, { goalId, status, attempts, masteredAt });
  return {
    learnerId,
    stateVersion,
    state: JSON.parse(stateJson) as LearnerState,
    progress,
  };
}

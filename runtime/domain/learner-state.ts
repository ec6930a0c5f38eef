/**
 * The learner's canonical state (shared by every session and the WebGUI). Stored as JSON next
 * to its `stateVersion`; additions must be optional so older rows still read.
 */
export interface LearnerState {
  /** The goal being taught now, or null while a choice is open or all is done. */
  activeGoalId: string | null;
  /** The skill the learner chose to focus on. */
  focusSkillId: string | null;
}

/** Progress on one goal. */
export interface GoalProgress {
  goalId: string;
  status: "practicing" | "mastered";
  /** Completion decisions recorded for this goal. */
  attempts: number;
  masteredAt: string | null;
}

/** Everything the domain rules read about one learner, as of one state version. */
export interface LearnerSnapshot {
  /** Internal row id: never leaves the backend (C15). */
  learnerId: number;
  stateVersion: number;
  state: LearnerState;
  progress: ReadonlyMap<string, GoalProgress>;
}

/** The state of a learner who has not started anything. */
export const initialLearnerState: LearnerState = { activeGoalId: null, focusSkillId: null };

/** Goal ids the learner has mastered. */
export function masteredGoals(snapshot: Pick<LearnerSnapshot, "progress">): Set<string> {
  return new Set([...snapshot.progress.values()].filter((p) => p.status === "mastered").map((p) => p.goalId));
}

import type { RecallSchedule } from "./spaced-repetition.js";

/** An open Verified Recall batch: the server-owned, ordered goals it asks about (C12). */
export interface RecallBatchState {
  batchId: string;
  goalIds: string[];
  openedAt: string;
}

/** A recorded skill assessment (exam). */
export interface ExamRecord {
  score: number;
  maxScore: number;
  passed: boolean;
  recordedAt: string;
}

/** Where the learner is in a memory-practice deck (the deck itself lives in its capability). */
export interface PracticeProgress {
  deckId: string;
  /** Cards of the deck already graded. */
  reviewed: number;
}

/**
 * The learner's canonical state (shared by every session and the WebGUI). Stored as JSON next
 * to its `stateVersion`; additions must be optional so older rows still read.
 */
export interface LearnerState {
  /** The goal being taught now, or null while a choice is open or all is done. */
  activeGoalId: string | null;
  /** The skill the learner chose to focus on. */
  focusSkillId: string | null;
  /**
   * Recall schedules of goals reviewed at least once. A mastered goal without an entry is on
   * its initial schedule (first due one day after mastery).
   */
  recallSchedules?: Record<string, RecallSchedule>;
  /** The open Verified Recall batch, if any. */
  recallBatch?: RecallBatchState | null;
  /** The batch recorded last: its grading capability is still recognised, so a replay is. */
  lastRecallBatchId?: string | null;
  /** Recorded assessments by skill id. */
  exams?: Record<string, ExamRecord>;
  /** The memory-practice deck being graded. */
  practice?: PracticeProgress | null;
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
  return new Set(
    [...snapshot.progress.values()].filter((p) => p.status === "mastered").map((p) => p.goalId),
  );
}

import type { LearnerSnapshot } from "./learner-state.js";
import { initialSchedule, selectDue, type RecallSchedule } from "./spaced-repetition.js";

/**
 * At most this many prompts per Verified Recall batch: a round the learner can finish in one go.
 */
export const maxBatchItems = 5;

/** A mastered goal as a recall item. */
export interface RecallItem {
  /** The goal id. */
  id: string;
  schedule: RecallSchedule;
}

/**
 * Every mastered goal is a recall item (issue #4): its stored schedule once it was reviewed,
 * otherwise the initial schedule counted from the mastery instant.
 */
export function recallItems(snapshot: Pick<LearnerSnapshot, "state" | "progress">): RecallItem[] {
  const stored = snapshot.state.recallSchedules ?? {};
  const items: RecallItem[] = [];
  for (const p of snapshot.progress.values()) {
    if (p.status !== "mastered" || !p.masteredAt) continue;
    items.push({
      id: p.goalId,
      schedule: stored[p.goalId] ?? initialSchedule(new Date(p.masteredAt)),
    });
  }
  return items;
}

/** The due recall items in server order (most overdue first), at most one batch. */
export function dueRecallItems(
  snapshot: Pick<LearnerSnapshot, "state" | "progress">,
  now: Date,
): RecallItem[] {
  return selectDue(recallItems(snapshot), now, maxBatchItems);
}

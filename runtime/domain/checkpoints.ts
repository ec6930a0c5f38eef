import type { Curriculum } from "./curriculum.js";
import { pendingExam } from "./exams.js";
import type { LearnerSnapshot } from "./learner-state.js";
import { dueRecallItems } from "./recall-items.js";

/**
 * True when a checkpoint comes before the next goal (C1: the backend owns the next step): an open
 * Verified Recall batch, recall items that are due, or an unlocked exam not yet taken.
 */
export function checkpointPending(
  curriculum: Curriculum,
  snapshot: Pick<LearnerSnapshot, "state" | "progress">,
  mastered: ReadonlySet<string>,
  now: Date,
): boolean {
  return (
    !!snapshot.state.recallBatch ||
    dueRecallItems(snapshot, now).length > 0 ||
    pendingExam(curriculum, snapshot.state, mastered) !== undefined
  );
}

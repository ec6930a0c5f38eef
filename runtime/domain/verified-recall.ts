import type { RecallPrompt, RecallReferenceAnswer } from "../../generated/types.gen.js";
import { randomId } from "../random-pool.js";
import type { Curriculum } from "./curriculum.js";
import type { LearnerSnapshot, LearnerState, RecallBatchState } from "./learner-state.js";
import { recallItems } from "./recall-items.js";
import { recordRecall, type RecallSchedule } from "./spaced-repetition.js";
import type { Locale } from "../i18n/index.js";

/** A batch is never empty (opening one needs a due item), and the contract says so: minItems 1. */
type NonEmpty<T> = [T, ...T[]];

/**
 * Stands in for "no batch" when a capability check needs the current batch id: real ids start
 * with `rb_`, so every batch-bound token fails as stale against it.
 */
export const noBatch = "none";

/** A fresh, unguessable batch id. */
export function newBatchId(): string {
  return `rb_${randomId(12)}`;
}

/** The prompts of a batch in server order, 1-based (C12). */
export function batchPrompts(
  curriculum: Curriculum,
  batch: RecallBatchState,
  locale: Locale,
): NonEmpty<RecallPrompt> {
  return <NonEmpty<RecallPrompt>>batch.goalIds.map((goalId, i) => ({
    position: i + 1,
    goalId,
    prompt: curriculum.goal(goalId)!.recall.prompt[locale],
  }));
}

/**
 * The reference answers of a batch in the same order: only ever shown by the answers step (C15).
 */
export function batchAnswers(
  curriculum: Curriculum,
  batch: RecallBatchState,
  locale: Locale,
): NonEmpty<RecallReferenceAnswer> {
  return <NonEmpty<RecallReferenceAnswer>>batch.goalIds.map((goalId, i) => ({
    position: i + 1,
    goalId,
    referenceAnswer: curriculum.goal(goalId)!.recall.answer[locale],
  }));
}

/**
 * The batch a grading capability may belong to: the open one, or — once recorded — the last
 * recorded one, so that a repeated record call reaches the replay check instead of looking stale.
 */
export function gradableBatchId(state: LearnerState): string {
  return state.recallBatch?.batchId ?? state.lastRecallBatchId ?? noBatch;
}

/** What recording a batch changes, plus the tally for the receipt. */
export interface RecordedRecall {
  state: LearnerState;
  passed: number;
  failed: number;
}

/**
 * Apply one `passed` decision per batch item, in batch order, to the items' schedules (a pass
 * counts as "good", a miss as "again"), and close the batch. The caller has checked that there
 * is exactly one decision per item.
 */
export function recordBatch(
  snapshot: LearnerSnapshot,
  batch: RecallBatchState,
  passed: readonly boolean[],
  now: Date,
): RecordedRecall {
  const current = new Map(recallItems(snapshot).map((item) => [item.id, item.schedule]));
  const schedules: Record<string, RecallSchedule> = { ...(snapshot.state.recallSchedules ?? {}) };
  batch.goalIds.forEach((goalId, i) => {
    const schedule = current.get(goalId);
    // A batch only holds mastered goals, and mastery is never taken back, so this always exists.
    if (schedule) schedules[goalId] = recordRecall(schedule, passed[i], now);
  });
  const hits = passed.filter(Boolean).length;
  return {
    state: {
      ...snapshot.state,
      recallSchedules: schedules,
      recallBatch: null,
      lastRecallBatchId: batch.batchId,
    },
    passed: hits,
    failed: passed.length - hits,
  };
}

/**
 * Spaced-repetition schedule for recall items (issue #4): an SM-2 variant. Pure functions —
 * every date comes in as an argument, nothing reads a clock. The rules are documented in
 * docs/spaced-repetition.md; change both together.
 */

/** How the learner did on one item. Verified Recall reports `passed`; practice cards a grade. */
export type RecallGrade = "again" | "hard" | "good" | "easy";

/** The stored schedule of one recall item (JSON-friendly: dates as ISO-8601 UTC strings). */
export interface RecallSchedule {
  /** Growth factor of the interval after a successful review, within [MIN_EASE, MAX_EASE]. */
  easeFactor: number;
  /** Days between the last review and `dueAt`; at least MIN_INTERVAL_DAYS. */
  intervalDays: number;
  /** Successful reviews in a row since the last lapse. */
  repetitions: number;
  /** Times the item was forgotten. */
  lapses: number;
  /** When the item becomes due. */
  dueAt: string;
  /** Last review (or, before the first review, the moment the goal was mastered). */
  reviewedAt: string;
}

export const MIN_EASE = 1.3;
export const MAX_EASE = 3.0;
export const INITIAL_EASE = 2.5;
export const MIN_INTERVAL_DAYS = 1;
export const MAX_INTERVAL_DAYS = 365;
/** The fixed first steps of SM-2: one day after the first success, six after the second. */
export const FIRST_INTERVAL_DAYS = 1;
export const SECOND_INTERVAL_DAYS = 6;
/** Extra growth of an "easy" answer on top of the ease factor. */
export const EASY_BONUS = 1.3;
/** Growth of a "hard" answer: slower than the ease factor but never shrinking. */
export const HARD_FACTOR = 1.2;

/** Ease change per grade. "good" leaves it as is, as SM-2 does for quality 4. */
const EASE_DELTA: Readonly<Record<RecallGrade, number>> = {
  again: -0.2,
  hard: -0.15,
  good: 0,
  easy: 0.15,
};
const DAY_MS = 86_400_000;

function checkedTime(at: Date): number {
  const time = at.getTime();
  if (!Number.isFinite(time)) throw new RangeError("spaced repetition needs a valid date");
  return time;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Round the ease to two decimals so stored schedules do not accumulate float noise. */
function roundEase(value: number): number {
  return Math.round(value * 100) / 100;
}

function scheduleAt(
  base: Omit<RecallSchedule, "dueAt" | "reviewedAt">,
  at: number,
): RecallSchedule {
  return {
    ...base,
    dueAt: new Date(at + base.intervalDays * DAY_MS).toISOString(),
    reviewedAt: new Date(at).toISOString(),
  };
}

/** The schedule of a goal that was just mastered: first recall one day later. */
export function initialSchedule(masteredAt: Date): RecallSchedule {
  return scheduleAt(
    { easeFactor: INITIAL_EASE, intervalDays: FIRST_INTERVAL_DAYS, repetitions: 0, lapses: 0 },
    checkedTime(masteredAt),
  );
}

/** Verified Recall reports only `passed`: a pass counts as "good", a miss as "again". */
export function gradeOfRecall(passed: boolean): RecallGrade {
  return passed ? "good" : "again";
}

/** The next interval in days for a successful review, before rounding and clamping. */
function passInterval(
  schedule: RecallSchedule,
  grade: Exclude<RecallGrade, "again">,
  ease: number,
): number {
  if (grade === "hard") return schedule.intervalDays * HARD_FACTOR;
  const repetitions = schedule.repetitions + 1;
  const stepped =
    repetitions === 1
      ? FIRST_INTERVAL_DAYS
      : repetitions === 2
        ? SECOND_INTERVAL_DAYS
        : schedule.intervalDays * ease;
  // At least one day more than "good", so "easy" always makes a difference on the short steps.
  if (grade === "easy") return Math.max(stepped + 1, stepped * EASY_BONUS);
  return stepped;
}

/**
 * Apply one review. A pass ("hard", "good", "easy") never shortens the interval; "again"
 * resets the streak, counts a lapse and brings the item back after MIN_INTERVAL_DAYS.
 */
export function reviewItem(
  schedule: RecallSchedule,
  grade: RecallGrade,
  reviewedAt: Date,
): RecallSchedule {
  const at = checkedTime(reviewedAt);
  const easeFactor = roundEase(clamp(schedule.easeFactor + EASE_DELTA[grade], MIN_EASE, MAX_EASE));
  if (grade === "again")
    return scheduleAt(
      { easeFactor, intervalDays: MIN_INTERVAL_DAYS, repetitions: 0, lapses: schedule.lapses + 1 },
      at,
    );
  const grown = Math.round(passInterval(schedule, grade, easeFactor));
  const intervalDays = clamp(
    Math.max(grown, schedule.intervalDays),
    MIN_INTERVAL_DAYS,
    MAX_INTERVAL_DAYS,
  );
  return scheduleAt(
    { easeFactor, intervalDays, repetitions: schedule.repetitions + 1, lapses: schedule.lapses },
    at,
  );
}

/** Apply a Verified Recall result (`passed` only, C7). */
export function recordRecall(
  schedule: RecallSchedule,
  passed: boolean,
  reviewedAt: Date,
): RecallSchedule {
  return reviewItem(schedule, gradeOfRecall(passed), reviewedAt);
}

/** True when the item is due at `now`. */
export function isDue(schedule: RecallSchedule, now: Date): boolean {
  return Date.parse(schedule.dueAt) <= checkedTime(now);
}

/**
 * The due items in a stable order — most overdue first, ties by id — capped at `limit`, so the
 * server owns the batch order (C12) and two calls at the same instant pick the same batch.
 */
export function selectDue<T extends { id: string; schedule: RecallSchedule }>(
  items: readonly T[],
  now: Date,
  limit: number,
): T[] {
  return items
    .filter((item) => isDue(item.schedule, now))
    .sort(
      (a, b) =>
        Date.parse(a.schedule.dueAt) - Date.parse(b.schedule.dueAt) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, Math.max(0, limit));
}

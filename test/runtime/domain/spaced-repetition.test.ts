import assert from "node:assert/strict";
import fc from "fast-check";
import {
  initialSchedule,
  isDue,
  MAX_EASE,
  MAX_INTERVAL_DAYS,
  MIN_EASE,
  MIN_INTERVAL_DAYS,
  recordRecall,
  reviewItem,
  selectDue,
  type RecallGrade,
  type RecallSchedule,
} from "../../../runtime/domain/spaced-repetition.js";

const DAY = 86_400_000;
const T0 = new Date("2026-11-30T09:00:00.000Z");
const days = (n: number) => new Date(T0.getTime() + n * DAY);
const grades: RecallGrade[] = ["again", "hard", "good", "easy"];

/** Review on the due date each time, returning the intervals seen. */
function intervals(schedule: RecallSchedule, sequence: RecallGrade[]): number[] {
  const seen: number[] = [];
  for (const grade of sequence) {
    schedule = reviewItem(schedule, grade, new Date(schedule.dueAt));
    seen.push(schedule.intervalDays);
  }
  return seen;
}

describe("runtime/domain/spaced-repetition: documented schedule (issue #4)", () => {
  it("makes a newly mastered goal due one day later with the initial ease", () => {
    assert.deepEqual(initialSchedule(T0), {
      easeFactor: 2.5,
      intervalDays: 1,
      repetitions: 0,
      lapses: 0,
      dueAt: "2026-12-01T09:00:00.000Z",
      reviewedAt: "2026-11-30T09:00:00.000Z",
    });
  });

  it(
    "follows the SM-2 steps for repeated passes: 1, 6, then × ease, capped at " + "365 days (C7)",
    () => {
      let s = initialSchedule(T0);
      const seen: number[] = [];
      for (let i = 0; i < 9; i += 1) {
        s = recordRecall(s, true, new Date(s.dueAt));
        seen.push(s.intervalDays);
      }
      assert.deepEqual(seen, [1, 6, 15, 38, 95, 238, 365, 365, 365]);
      assert.equal(s.easeFactor, 2.5);
      assert.equal(s.repetitions, 9);
    },
  );

  it("resets a failed recall to one day, counts a lapse and lowers the ease (C7)", () => {
    const learned = reviewItem(
      reviewItem(reviewItem(initialSchedule(T0), "good", days(1)), "good", days(2)),
      "good",
      days(8),
    );
    assert.equal(learned.intervalDays, 15);
    const failed = recordRecall(learned, false, days(23));
    assert.deepEqual(failed, {
      easeFactor: 2.3,
      intervalDays: 1,
      repetitions: 0,
      lapses: 1,
      dueAt: days(24).toISOString(),
      reviewedAt: days(23).toISOString(),
    });
  });

  it("maps practice grades: hard grows slowly, easy grows faster and raises the ease", () => {
    // 6 days
    const s = reviewItem(reviewItem(initialSchedule(T0), "good", days(1)), "good", days(2));
    assert.deepEqual(
      grades.map((g) => [
        g,
        reviewItem(s, g, days(8)).intervalDays,
        reviewItem(s, g, days(8)).easeFactor,
      ]),
      [
        ["again", 1, 2.3],
        ["hard", 7, 2.35],
        ["good", 15, 2.5],
        ["easy", 21, 2.65],
      ],
    );
  });

  it("is due from dueAt on, not before; the due date follows the actual review time", () => {
    const s = initialSchedule(T0);
    assert.equal(isDue(s, new Date(days(1).getTime() - 1)), false);
    assert.equal(isDue(s, days(1)), true);
    const late = reviewItem(s, "good", days(5));
    assert.equal(late.dueAt, days(6).toISOString());
  });

  it(
    "selects due items most overdue first, ties by id, up to the limit (C12 " +
      "server-owned order)",
    () => {
      const item = (id: string, due: number) => ({
        id,
        schedule: { ...initialSchedule(T0), dueAt: days(due).toISOString() },
      });
      const items = [item("c", 2), item("b", 1), item("a", 1), item("d", 9)];
      assert.deepEqual(
        selectDue(items, days(3), 10).map((i) => i.id),
        ["a", "b", "c"],
      );
      assert.deepEqual(
        selectDue(items, days(3), 2).map((i) => i.id),
        ["a", "b"],
      );
      assert.deepEqual(selectDue(items, days(0), 10), []);
    },
  );

  it("rejects invalid dates instead of producing NaN schedules", () => {
    assert.throws(() => initialSchedule(new Date("nope")), RangeError);
    assert.throws(() => reviewItem(initialSchedule(T0), "good", new Date(NaN)), RangeError);
  });
});

describe("runtime/domain/spaced-repetition: properties (issue #4)", () => {
  const sequence = fc.array(fc.constantFrom(...grades), { minLength: 1, maxLength: 40 });
  // Reviews may come early, on time or late: the offset from the due date in hours.
  const offsets = fc.array(fc.integer({ min: -48, max: 24 * 400 }), {
    minLength: 40,
    maxLength: 40,
  });

  function walk(
    sequence: RecallGrade[],
    offsets: number[],
    check: (before: RecallSchedule, grade: RecallGrade, after: RecallSchedule) => void,
  ) {
    let s = initialSchedule(T0);
    sequence.forEach((grade, i) => {
      const at = new Date(
        Math.max(Date.parse(s.reviewedAt), Date.parse(s.dueAt) + offsets[i]! * 3_600_000),
      );
      const next = reviewItem(s, grade, at);
      check(s, grade, next);
      s = next;
    });
  }

  it("never yields a negative or sub-minimum interval, and never exceeds the cap", () => {
    fc.assert(
      fc.property(sequence, offsets, (seq, off) =>
        walk(seq, off, (_, __, after) => {
          assert.ok(Number.isInteger(after.intervalDays));
          assert.ok(
            after.intervalDays >= MIN_INTERVAL_DAYS && after.intervalDays <= MAX_INTERVAL_DAYS,
          );
          assert.ok(Date.parse(after.dueAt) > Date.parse(after.reviewedAt));
        }),
      ),
    );
  });

  it("never shortens the interval on a pass, and always resets to the minimum on a miss", () => {
    fc.assert(
      fc.property(sequence, offsets, (seq, off) =>
        walk(seq, off, (before, grade, after) => {
          if (grade === "again") assert.equal(after.intervalDays, MIN_INTERVAL_DAYS);
          else
            assert.ok(
              after.intervalDays >= before.intervalDays,
              `${grade}: ${before.intervalDays} → ${after.intervalDays}`,
            );
        }),
      ),
    );
  });

  it("keeps the ease factor within its bounds", () => {
    fc.assert(
      fc.property(sequence, offsets, (seq, off) =>
        walk(seq, off, (_, __, after) =>
          assert.ok(after.easeFactor >= MIN_EASE && after.easeFactor <= MAX_EASE),
        ),
      ),
    );
  });

  it("orders grades: hard ≤ good ≤ easy, and again is the shortest", () => {
    fc.assert(
      fc.property(sequence, (seq) => {
        let s = initialSchedule(T0);
        for (const grade of seq) s = reviewItem(s, grade, new Date(s.dueAt));
        const at = new Date(s.dueAt);
        const [again, hard, good, easy] = grades.map((g) => reviewItem(s, g, at).intervalDays);
        assert.ok(
          again! <= hard! && hard! <= good! && good! <= easy!,
          `${again} ${hard} ${good} ${easy}`,
        );
      }),
    );
  });

  it("is a pure function of its inputs", () => {
    fc.assert(
      fc.property(sequence, (seq) => {
        assert.deepEqual(intervals(initialSchedule(T0), seq), intervals(initialSchedule(T0), seq));
      }),
    );
  });
});

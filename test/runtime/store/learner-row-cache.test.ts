import assert from "node:assert/strict";
import { LearnerRowCache, rowAfter } from "../../../runtime/store/learner-row-cache.js";
import type { LearnerRow } from "../../../runtime/store/postgres-statements.js";

const row = (version: number, goals: LearnerRow["progress"] = []): LearnerRow => ({
  state_version: version,
  state_json: `{"v":${version}}`,
  progress: goals,
});

describe("learner rows kept for presumed writes", () => {
  it("keeps the latest version of a learner's row: an older read never replaces it", () => {
    const cache = new LearnerRowCache();
    assert.equal(cache.presumable(1), undefined);
    cache.remember(1, row(3));
    cache.remember(1, row(2));
    assert.equal(cache.presumable(1)?.state_version, 3);
    cache.remember(1, row(4));
    assert.equal(cache.presumable(1)?.state_version, 4);
  });

  it("presumes nothing of a contested learner for ten seconds, even after a newer read", () => {
    const cache = new LearnerRowCache();
    cache.remember(7, row(5));
    cache.contest(7, 1_000);
    assert.equal(cache.presumable(7, 1_001), undefined);
    cache.remember(7, row(6));
    assert.equal(cache.presumable(7, 10_999), undefined);
    assert.equal(cache.presumable(7, 11_000)?.state_version, 6);
  });

  it("holds a bounded number of learners, the least recently used leaving first", () => {
    const cache = new LearnerRowCache();
    for (let id = 0; id < 5000; id++) cache.remember(id, row(1));
    assert.equal(cache.presumable(0), undefined);
    assert.equal(cache.presumable(4999)?.state_version, 1);
  });

  it("derives the committed row as the database reads it: next version, progress upserted, goals in UTF-8 byte order", () => {
    const before = row(2, [
      ["b", "practicing", 1, null],
      ["z", "mastered", 2, "2026-01-01T00:00:00.000Z"],
    ]);
    const after = rowAfter({
      served: { learnerId: 9, row: before },
      state: { learnerId: 9, from: 2, stateJson: '{"after":true}' },
      progress: [
        {
          learnerId: 9,
          progress: { goalId: "😀", status: "practicing", attempts: 1, masteredAt: null },
        },
        {
          learnerId: 9,
          progress: { goalId: "\uff21", status: "practicing", attempts: 1, masteredAt: null },
        },
        {
          learnerId: 9,
          progress: { goalId: "é", status: "practicing", attempts: 1, masteredAt: null },
        },
        {
          learnerId: 9,
          progress: { goalId: "B", status: "practicing", attempts: 1, masteredAt: null },
        },
        {
          learnerId: 9,
          progress: { goalId: "b", status: "mastered", attempts: 2, masteredAt: "t" },
        },
        {
          learnerId: 8,
          progress: { goalId: "a", status: "practicing", attempts: 1, masteredAt: null },
        },
      ],
    });
    assert.deepEqual(after, {
      learnerId: 9,
      row: {
        state_version: 3,
        state_json: '{"after":true}',
        progress: [
          ["B", "practicing", 1, null],
          ["b", "mastered", 2, "t"],
          ["z", "mastered", 2, "2026-01-01T00:00:00.000Z"],
          ["é", "practicing", 1, null],
          ["\uff21", "practicing", 1, null],
          ["😀", "practicing", 1, null],
        ],
      },
    });
  });

  it("derives nothing when the write did not move the row it loaded", () => {
    const served = { learnerId: 1, row: row(4) };
    assert.equal(rowAfter({ served, progress: [] }), undefined);
    assert.equal(
      rowAfter({ served, state: { learnerId: 1, from: 3, stateJson: "{}" }, progress: [] }),
      undefined,
    );
    assert.equal(
      rowAfter({ served, state: { learnerId: 2, from: 4, stateJson: "{}" }, progress: [] }),
      undefined,
    );
  });
});

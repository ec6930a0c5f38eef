import assert from "node:assert/strict";
import { RecallPool } from "../../../bench/runtime/recall-pool.js";

/**
 * A pool over a counting mint (learner ids "s0", "s1", …, every mint's size) and a clock the test
 * moves (`clock.ms`).
 */
function countingPool(clients: number, initial: number) {
  let minted = 0;
  const clock = { ms: 0 };
  const mints: number[] = [];
  const pool = new RecallPool(
    async (count) => {
      mints.push(count);
      return Array.from({ length: count }, () => `s${minted++}`);
    },
    clients,
    initial,
    () => clock.ms,
  );
  return { pool, mints, clock, minted: () => minted };
}

/** Take `n` learners from client `client`, one after another, as its rounds do. */
async function take(next: () => string | Promise<string>, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await next());
  return ids;
}

describe("bench recall pool: due learners minted as the run goes, never used up (issue #35 item 0)", () => {
  it("seeds `initial` per client before any rate is known, and never hands a learner out twice", async () => {
    const { pool, mints } = countingPool(3, 10);
    await pool.prepare(1);
    assert.deepEqual(mints, [30]);
    const ids = (await Promise.all([0, 1, 2].map((c) => take(pool.next(c), 10)))).flat();
    assert.equal(new Set(ids).size, 30);
    assert.equal(pool.waited, 0);
  });

  it("a client that runs dry inside a stretch waits for a top-up instead of failing, counted", async () => {
    const { pool, mints } = countingPool(2, 4);
    await pool.prepare(1);
    const ids = await take(pool.next(0), 4 + 60);
    assert.equal(new Set(ids).size, 64);
    // Its 4, then two top-ups of 50 (at least 50 each, not one per round).
    assert.equal(pool.waited, 2);
    assert.deepEqual(mints, [8, 50, 50]);
  });

  it("tops every client up for the next stretch at the fastest rate seen, with a margin", async () => {
    const { pool, mints, clock, minted } = countingPool(2, 5);
    await pool.prepare(1);
    const [fast, slow] = [pool.next(0), pool.next(1)];
    // Client 0 takes 5 learners 25 ms apart (40 per second), client 1 three in 1.1 s.
    for (let i = 0; i < 5; i++) {
      await fast();
      if (i < 2) await slow();
      clock.ms += 25;
    }
    clock.ms += 1000;
    await slow();
    const before = minted();
    await pool.prepare(10);
    // 40/s for 10 s, twice over, plus 50: 850 per client, less what each still holds (0 and 2).
    assert.equal(minted() - before, 850 + 848);
    assert.equal(mints.length, 2, "one mint per prepare");
    // A slower stretch later does not lower the rate a top-up is sized for.
    await take(slow, 10);
    clock.ms += 10_000;
    await slow();
    await pool.prepare(10);
    assert.equal(mints[2], 11, "client 1 topped up to 850 again: sized for 40/s, not 1/s");
    // Client 1 is topped up alike: the rate is the fastest client's.
    const ids = await take(slow, 850);
    assert.equal(new Set(ids).size, 850);
    assert.equal(pool.waited, 0);
  });

  it("mints nothing when every queue already holds what the next stretch needs", async () => {
    const { pool, mints } = countingPool(2, 100);
    await pool.prepare(1);
    await pool.prepare(1);
    assert.deepEqual(mints, [200]);
  });
});

import assert from "node:assert/strict";
import {
  PolicyGeneration,
  VerifiedTokenCache,
} from "../../../runtime/auth/verified-token-cache.js";

describe("the verified-token cache: bounded by exp, by size and by the client policy generation (L14)", () => {
  /** A cache on a clock the test moves (epoch seconds). */
  function cache(options: { maxEntries?: number; maxAgeSeconds?: number } = {}) {
    const clock = { now: 1_000 };
    const generation = new PolicyGeneration();
    const memo = new VerifiedTokenCache<{ expiresAt: number; who: string }>({
      maxEntries: options.maxEntries ?? 10,
      ...(options.maxAgeSeconds !== undefined && { maxAgeSeconds: options.maxAgeSeconds }),
      generation,
      now: () => clock.now,
    });
    const put = (key: string, expiresAt: number) =>
      memo.set(key, { expiresAt, who: key }, memo.currentGeneration());
    return { memo, clock, generation, put };
  }

  it("a hit returns the verification it remembered", () => {
    const { memo, put } = cache();
    put("a", 1_060);
    assert.deepEqual(memo.get("a"), { expiresAt: 1_060, who: "a" });
    assert.equal(memo.get("b"), undefined);
  });

  it("never serves an entry at or past its exp, to the millisecond", () => {
    const { memo, clock, put } = cache();
    put("a", 1_060);
    clock.now = 1_059.999;
    assert.ok(memo.get("a"), "just before exp: a hit");
    clock.now = 1_060;
    assert.equal(memo.get("a"), undefined, "at exp: a miss");
    assert.equal(memo.size, 0, "and forgotten");
  });

  it("keeps nothing for a token already at or past its exp, or with maxAgeSeconds 0", () => {
    const { memo, put } = cache();
    put("expired", 1_000);
    put("older", 999);
    assert.equal(memo.size, 0);
    const none = cache({ maxAgeSeconds: 0 });
    none.put("a", 1_060);
    assert.equal(none.memo.size, 0);
  });

  it("a maximum age shorter than the exp ends the entry first", () => {
    const { memo, clock, put } = cache({ maxAgeSeconds: 5 });
    put("a", 1_060);
    clock.now = 1_004;
    assert.ok(memo.get("a"));
    // lru-cache's own timer measures the age: the exp check alone would still serve it.
    const aged = cache({ maxAgeSeconds: 0.001 });
    aged.put("a", 1_060);
    const until = Date.now() + 20;
    while (Date.now() < until);
    assert.equal(aged.memo.get("a"), undefined);
  });

  it("holds at most maxEntries, dropping the least recently used", () => {
    const { memo, put } = cache({ maxEntries: 2 });
    put("a", 1_060);
    put("b", 1_060);
    assert.ok(memo.get("a"), "a used again: b is now the least recent");
    put("c", 1_060);
    assert.equal(memo.size, 2);
    assert.equal(memo.get("b"), undefined);
    assert.ok(memo.get("a"));
    assert.ok(memo.get("c"));
  });

  it("a policy change forgets every remembered verification at once", () => {
    const { memo, generation, put } = cache();
    put("a", 1_060);
    put("b", 1_060);
    generation.advance();
    assert.equal(memo.get("a"), undefined);
    assert.equal(memo.get("b"), undefined);
    put("a", 1_060);
    assert.ok(memo.get("a"), "verified again under the new generation: remembered");
  });

  it("a verification that began before a policy change is not remembered", () => {
    const { memo, generation } = cache();
    const began = memo.currentGeneration();
    generation.advance();
    memo.set("a", { expiresAt: 1_060, who: "a" }, began);
    assert.equal(memo.get("a"), undefined);
    assert.equal(memo.size, 0);
  });
});

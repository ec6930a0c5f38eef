import assert from "node:assert/strict";
import type { WriteOpening, WriteTx } from "../../../runtime/domain/ports/coach-store.js";
import { PostgresStore } from "../../../runtime/store/postgres-store.js";
import { learnerWithSession } from "../support/learner-with-session.js";
import { countRoundTrips } from "../support/round-trip-counter.js";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres.js";

/**
 * Writes that presume the learner row their instance last saw (postgres-presumed-write.ts): one
 * round trip when the row is current; when it is not (another instance wrote the learner, the key
 * or the token was used meanwhile) the database refuses the one statement, nothing of it stays, and
 * the write runs again the long way with the answer the long way gives.
 */
describe("PostgreSQL store: writes on a presumed learner row", function () {
  this.timeout(60_000);
  let pg: ThrowawayPostgres | undefined;
  /** Two instances on one database. */
  let a: PostgresStore;
  let b: PostgresStore;

  before(async function () {
    pg = await startThrowawayPostgres();
    if (!pg) this.skip(); // PostgreSQL is not installed on this machine
    a = await PostgresStore.open(pg.url, 3);
    b = await PostgresStore.open(pg.url, 3);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await pg?.stop();
  });

  const learner = (name: string) => learnerWithSession(a, name);

  /**
   * A write as the write pipeline makes it, on the version it reads: spend, idempotency, the
   * caller's expected version (refused when it differs), state, progress, receipt, stored answer.
   */
  function completion(
    who: { learnerId: number; sessionId: string },
    request: string,
    jti: string | undefined,
    expected?: number,
  ): { opening: WriteOpening; work: (tx: WriteTx) => Promise<string> } {
    const { learnerId, sessionId } = who;
    const now = Date.now();
    const at = new Date(now).toISOString();
    const key = { sessionId, toolName: "complete_skillpilot_goal", clientRequestId: request };
    return {
      opening: { learnerId, idempotency: { key, now }, ...(jti && { capabilityJti: jti }) },
      work: async (tx) => {
        const snapshot = await tx.loadLearner(learnerId);
        const verdict = jti && (await tx.spendCapability(jti, request, now + 60_000));
        if (verdict === "replayed") throw new Error("CAPABILITY_REPLAYED");
        const stored = await tx.findIdempotency(key, now);
        if (stored) return `replayed ${stored.response}`;
        if (expected !== undefined && expected !== snapshot.stateVersion)
          throw new Error("STATE_CONFLICT");
        const version = await tx.saveState(
          learnerId,
          { ...snapshot.state, activeGoalId: request },
          snapshot.stateVersion,
          at,
        );
        const attempts = (snapshot.progress.get("g")?.attempts ?? 0) + 1;
        await tx.saveProgress(
          learnerId,
          { goalId: "g", status: "practicing", attempts, masteredAt: null },
          at,
        );
        await tx.insertReceipt({
          receiptId: `rcp_${request}`,
          learnerId,
          sessionId,
          operation: "complete_skillpilot_goal",
          stateVersion: version,
          recordedAt: at,
        });
        const response = `{"v":${version}}`;
        await tx.saveIdempotency({
          ...key,
          fingerprint: request,
          response,
          createdAt: at,
          expiresAt: now + 60_000,
        });
        return response;
      },
    };
  }

  async function write(
    on: PostgresStore,
    w: ReturnType<typeof completion>,
  ): Promise<{ trips: number; answer?: string; error?: string }> {
    let answer: string | undefined;
    let error: string | undefined;
    const trips = await countRoundTrips(async () => {
      answer = await on.write(w.work, w.opening).catch((e: Error) => {
        error = e.message;
        return undefined;
      });
    });
    return { trips, answer, error };
  }

  /** What the database holds for a learner: version, state, attempts, receipts, spends, keys. */
  async function stored(learnerId: number, sessionId: string) {
    const db = a.admin();
    const state = await db("learner_state").where({ learner_id: learnerId }).first();
    const progress = await db("progress").where({ learner_id: learnerId, goal_id: "g" }).first();
    const receipts = await db("receipts").where({ learner_id: learnerId }).orderBy("state_version");
    const keys = await db("idempotency_records").where({ session_id: sessionId });
    return {
      version: Number(state.state_version),
      goal: JSON.parse(state.state_json).activeGoalId as string | null,
      attempts: progress ? Number(progress.attempts) : 0,
      receipts: receipts.map((r) => `${r.receipt_id}@${r.state_version}`),
      keys: keys.map((k) => k.client_request_id as string).sort(),
    };
  }

  it("writes a learner its instance wrote last in one round trip, storing what the long way stores", async () => {
    // The connections for presumed writes open (and are set SERIALIZABLE) on first use, once.
    const warm = await learner("presume-warm");
    await write(a, completion(warm, "w1", "wj1"));
    assert.equal((await write(a, completion(warm, "w2", "wj2"))).trips, 2);
    const who = await learner("presume-one-trip");
    assert.equal((await write(a, completion(who, "r1", "j1"))).trips, 2);
    const second = await write(a, completion(who, "r2", "j2", 2));
    assert.deepEqual(second, { trips: 1, answer: '{"v":3}', error: undefined });
    const third = await write(a, completion(who, "r3", "j3", 3));
    assert.deepEqual(third, { trips: 1, answer: '{"v":4}', error: undefined });
    assert.deepEqual(await stored(who.learnerId, who.sessionId), {
      version: 4,
      goal: "r3",
      attempts: 3,
      receipts: ["rcp_r1@2", "rcp_r2@3", "rcp_r3@4"],
      keys: ["r1", "r2", "r3"],
    });
    const spends = await a.admin()("spent_capabilities").whereIn("jti", ["j1", "j2", "j3"]);
    assert.equal(spends.length, 3);
    // What the next presumed write sees is what a read of the database returns.
    const read = await b.loadLearner(who.learnerId);
    assert.equal(read.stateVersion, 4);
    assert.deepEqual(
      [...read.progress.values()],
      [{ goalId: "g", status: "practicing", attempts: 3, masteredAt: null }],
    );
  });

  it("runs a write on a row another instance moved again the long way, once: the refused statement left nothing", async () => {
    const who = await learner("presume-stale");
    await write(a, completion(who, "s1", "k1"));
    await write(b, completion(who, "s2", "k2", 2));
    // a still holds version 2: its one statement is refused, then BEGIN + read, writes + COMMIT.
    const stale = await write(a, completion(who, "s3", "k3"));
    assert.deepEqual(stale, { trips: 3, answer: '{"v":4}', error: undefined });
    assert.deepEqual(await stored(who.learnerId, who.sessionId), {
      version: 4,
      goal: "s3",
      attempts: 3,
      receipts: ["rcp_s1@2", "rcp_s2@3", "rcp_s3@4"],
      keys: ["s1", "s2", "s3"],
    });
    // Another instance writes this learner: a's next writes take the long way at once.
    assert.equal((await write(a, completion(who, "s4", "k4", 4))).trips, 2);
    assert.equal((await stored(who.learnerId, who.sessionId)).version, 5);
  });

  it("refuses what a presumed row would have wrongly allowed: the caller's version is checked against the database", async () => {
    const who = await learner("presume-conflict");
    await write(a, completion(who, "c1", "m1"));
    await write(b, completion(who, "c2", "m2", 2));
    // The caller based its write on version 2, which a still holds; the database has 3.
    const late = await write(a, completion(who, "c3", "m3", 2));
    assert.equal(late.error, "STATE_CONFLICT");
    const after = await stored(who.learnerId, who.sessionId);
    assert.equal(after.version, 3);
    assert.deepEqual(after.receipts, ["rcp_c1@2", "rcp_c2@3"]);
    assert.equal(await a.admin()("spent_capabilities").where({ jti: "m3" }).first(), undefined);
  });

  it("answers an exact retry on the instance that committed it from the stored answer, writing nothing twice", async () => {
    const who = await learner("presume-retry");
    await write(a, completion(who, "q1", "t1"));
    // The row a holds is the one q1 left; the key q1 is live, so the statement is refused.
    const retry = await write(a, completion(who, "q1", "t1"));
    assert.deepEqual(retry, { trips: 3, answer: 'replayed {"v":2}', error: undefined });
    assert.deepEqual(await stored(who.learnerId, who.sessionId), {
      version: 2,
      goal: "q1",
      attempts: 1,
      receipts: ["rcp_q1@2"],
      keys: ["q1"],
    });
  });

  it("answers an exact retry of a write without a token from the stored answer: the live key refuses the statement", async () => {
    const who = await learner("presume-retry-key");
    await write(a, completion(who, "k1", undefined));
    const retry = await write(a, completion(who, "k1", undefined));
    assert.deepEqual(retry, { trips: 3, answer: 'replayed {"v":2}', error: undefined });
    assert.deepEqual(await stored(who.learnerId, who.sessionId), {
      version: 2,
      goal: "k1",
      attempts: 1,
      receipts: ["rcp_k1@2"],
      keys: ["k1"],
    });
  });

  it("refuses another request with a token spent meanwhile, spending and writing nothing", async () => {
    const who = await learner("presume-spent");
    await write(a, completion(who, "p1", "once"));
    await write(b, completion(who, "p2", "shared"));
    // a presumes version 2 and the token unspent; b moved the version and spent it.
    const replay = await write(a, completion(who, "p3", "shared"));
    assert.equal(replay.error, "CAPABILITY_REPLAYED");
    assert.deepEqual(await stored(who.learnerId, who.sessionId), {
      version: 3,
      goal: "p2",
      attempts: 2,
      receipts: ["rcp_p1@2", "rcp_p2@3"],
      keys: ["p1", "p2"],
    });
    const spends = await a.admin()("spent_capabilities").where({ jti: "shared" });
    assert.deepEqual(
      spends.map((s) => s.use_key),
      ["p2"],
    );
  });

  it("loses no update when both instances write one learner concurrently on presumed rows (G5)", async () => {
    const who = await learner("presume-race");
    await write(a, completion(who, "warm-a", "wa"));
    await write(b, completion(who, "warm-b", "wb"));
    const perWriter = 10;
    const answers = await Promise.all(
      [a, b, a, b].map(async (on, w) => {
        const got: string[] = [];
        for (let i = 0; i < perWriter; i++) {
          const done = await write(on, completion(who, `race-${w}-${i}`, `jr-${w}-${i}`));
          got.push(done.error ?? done.answer!);
        }
        return got;
      }),
    );
    const versions = answers.flat().map((answer) => Number(/"v":(\d+)/.exec(answer)?.[1]));
    assert.equal(new Set(versions).size, 4 * perWriter, "each write committed its own version");
    const after = await stored(who.learnerId, who.sessionId);
    assert.equal(after.version, 3 + 4 * perWriter);
    assert.equal(after.attempts, 2 + 4 * perWriter);
    assert.equal(after.receipts.length, 2 + 4 * perWriter);
  });

  it("replaces a shared connection the database dropped: the next reads and writes succeed", async () => {
    const who = await learner("presume-dropped");
    await write(a, completion(who, "d1", "n1"));
    await a.loadLearner(who.learnerId);
    const killed = await b
      .admin()
      .raw(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity " +
          "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
      );
    assert.ok(killed.rows.length > 0);
    // The drop reaches the client as an error event; what was in flight fails, the rest reconnects.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await a.loadLearner(who.learnerId)).stateVersion, 2);
    assert.equal((await write(a, completion(who, "d2", "n2", 2))).answer, '{"v":3}');
    assert.equal((await stored(who.learnerId, who.sessionId)).version, 3);
  });
});

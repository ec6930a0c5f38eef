import assert from "node:assert/strict";
import { POLICY_LEASE_MS, PolicyLease } from "../../../runtime/auth/policy-lease.js";

describe("the client policy lease: no database read per call, no call served past it (issue #21 item 4; L14)", () => {
  /** A lease on a clock the test moves, over heartbeats the test answers. */
  function lease(answers: boolean[]) {
    let now = 0;
    let heartbeats = 0;
    let lost = 0;
    const policy = new PolicyLease(
      async () => {
        heartbeats++;
        return answers.shift() ?? true;
      },
      () => lost++,
      0,
      () => now,
    );
    return {
      policy,
      advance: (ms: number) => (now += ms),
      heartbeats: () => heartbeats,
      lost: () => lost,
    };
  }

  it("answers from memory while the last confirmed heartbeat is younger than the lease", () => {
    const l = lease([]);
    l.advance(POLICY_LEASE_MS - 1);
    assert.equal(l.policy.current(), true);
    assert.equal(l.heartbeats(), 0);
  });

  it("past the lease (a frozen process), asks the database once before serving, for every waiting call", async () => {
    const l = lease([true]);
    l.advance(POLICY_LEASE_MS + 17_000);
    const waiting = [l.policy.current(), l.policy.current(), l.policy.current()];
    assert.ok(waiting.every((w) => w instanceof Promise));
    assert.deepEqual(await Promise.all(waiting), [true, true, true]);
    assert.equal(l.heartbeats(), 1);
    assert.equal(l.policy.current(), true, "the confirmation renews the lease");
  });

  it("a heartbeat that finds another policy ends the lease for good and reports it once", async () => {
    const l = lease([false]);
    l.advance(POLICY_LEASE_MS);
    assert.equal(await l.policy.current(), false);
    assert.equal(l.policy.current(), false);
    assert.equal(await l.policy.renew(), true, "a later answer brings nothing back");
    assert.equal(l.policy.current(), false);
    assert.equal(l.lost(), 1);
  });

  it("a failing heartbeat past the lease refuses the call", async () => {
    const failing = new PolicyLease(
      async () => {
        throw new Error("database unreachable");
      },
      () => undefined,
      0,
      () => POLICY_LEASE_MS,
    );
    assert.equal(await failing.current(), false);
  });
});

import assert from "node:assert/strict";
import { COMPLETE, completeArgs, context, READ, TraceScript } from "./support/trace-script.js";

const KEY = "6b2d1c1e-1111-4222-8333-444455556666";
const FRESH = "7c3e2d2f-2222-4333-8444-555566667777";
const saved = { ok: { successor: { stateVersion: 4 } } };

describe("checks/trace/rules/retry.rule.ts", () => {
  describe("TRACE_KEY_REUSED", () => {
    const twoTurns = (secondKey: string) => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(3, KEY), saved)
        .learner()
        .call(READ, {}, context(4));
      const line = trace.nextLine;
      trace.call(COMPLETE, completeArgs(4, secondKey));
      return { trace, line };
    };

    it("fires on a new operation that reuses an earlier call's clientRequestId", () => {
      const { trace, line } = twoTurns(KEY);
      assert.deepEqual(trace.findings("TRACE_KEY_REUSED"), [
        [
          "error",
          line,
          "turn 2: complete_skillpilot_goal reused the clientRequestId of an earlier call with other arguments",
        ],
      ]);
    });

    it("stays quiet when the new operation uses a fresh key", () => {
      assert.deepEqual(twoTurns(FRESH).trace.findings("TRACE_KEY_REUSED"), []);
    });
  });

  describe("TRACE_RETRY_NEW_KEY", () => {
    const retried = (retryKey: string) => {
      const trace = new TraceScript().learner().call(READ, {}, context());
      const first = trace.send(COMPLETE, completeArgs(3, KEY));
      const line = trace.nextLine;
      trace.call(COMPLETE, completeArgs(3, retryKey), saved).reply(first, saved);
      return { trace, line };
    };

    it("fires on a retry of an unanswered write under a fresh clientRequestId", () => {
      const { trace, line } = retried(FRESH);
      assert.deepEqual(trace.findings("TRACE_RETRY_NEW_KEY"), [
        [
          "error",
          line,
          "turn 1: complete_skillpilot_goal retried an unfinished write with a fresh clientRequestId, which makes it a second operation",
        ],
      ]);
    });

    it("stays quiet on the identical retry (same key, same arguments)", () => {
      assert.deepEqual(retried(KEY).trace.findings("TRACE_RETRY_NEW_KEY"), []);
    });
  });
});

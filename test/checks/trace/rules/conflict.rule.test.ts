import assert from "node:assert/strict";
import { COMPLETE, completeArgs, context, READ, TraceScript } from "./support/trace-script.js";

const conflict = { error: "STATE_CONFLICT" };

describe("checks/trace/rules/conflict.rule.ts", () => {
  describe("TRACE_CONFLICT_NOT_RELOADED", () => {
    it("fires on a write retried after a STATE_CONFLICT without reloading the context", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(), conflict);
      const line = trace.nextLine;
      trace.call(COMPLETE, completeArgs(4, "7c3e2d2f-2222-4333-8444-555566667777"));
      assert.deepEqual(trace.findings("TRACE_CONFLICT_NOT_RELOADED"), [
        [
          "error",
          line,
          "turn 1: complete_skillpilot_goal followed a STATE_CONFLICT without reloading the context",
        ],
      ]);
    });

    it("stays quiet when the context is reloaded before the write is re-evaluated", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(), conflict)
        .call(READ, {}, context(4))
        .call(COMPLETE, completeArgs(4, "7c3e2d2f-2222-4333-8444-555566667777"));
      assert.deepEqual(trace.findings("TRACE_CONFLICT_NOT_RELOADED"), []);
    });
  });

  describe("TRACE_CALL_AFTER_STOP", () => {
    const twoConflicts = () =>
      new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(), conflict)
        .call(READ, {}, context(4))
        .call(COMPLETE, completeArgs(4, "7c3e2d2f-2222-4333-8444-555566667777"), conflict);

    it("fires on a call after a repeated STATE_CONFLICT", () => {
      const trace = twoConflicts();
      const line = trace.nextLine;
      trace.call(READ, {}, context(5));
      assert.deepEqual(trace.findings("TRACE_CALL_AFTER_STOP"), [
        [
          "error",
          line,
          "turn 1: get_skillpilot_learning_context was called after a repeated STATE_CONFLICT",
        ],
      ]);
    });

    it("fires on a call after a hard error", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(), { error: "SESSION_EXPIRED" });
      const line = trace.nextLine;
      trace.call(READ, {}, context());
      assert.deepEqual(trace.findings("TRACE_CALL_AFTER_STOP"), [
        [
          "error",
          line,
          "turn 1: get_skillpilot_learning_context was called after SESSION_EXPIRED, which stops structured calls",
        ],
      ]);
    });

    it("stays quiet when the turn stops calling after the second conflict", () => {
      assert.deepEqual(twoConflicts().findings("TRACE_CALL_AFTER_STOP"), []);
    });
  });
});

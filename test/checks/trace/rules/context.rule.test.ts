import assert from "node:assert/strict";
import { COMPLETE, completeArgs, context, READ, TraceScript } from "./support/trace-script.js";

describe("checks/trace/rules/context.rule.ts", () => {
  describe("TRACE_NO_FRESH_CONTEXT", () => {
    it("fires on a turn whose first call is a write, with no context read", () => {
      const trace = new TraceScript().learner();
      const line = trace.nextLine;
      trace.call(COMPLETE, completeArgs());
      assert.deepEqual(trace.findings("TRACE_NO_FRESH_CONTEXT"), [
        [
          "error",
          line,
          "turn 1: complete_skillpilot_goal was called without a fresh full-context read in the turn",
        ],
      ]);
    });

    it("stays quiet when the turn reads the context first", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs());
      assert.deepEqual(trace.findings("TRACE_NO_FRESH_CONTEXT"), []);
    });
  });

  describe("TRACE_CONTEXT_POLLING", () => {
    it("fires on a second context read with nothing in between", () => {
      const trace = new TraceScript().learner().call(READ, {}, context());
      const line = trace.nextLine;
      trace.call(READ, {}, context());
      assert.deepEqual(trace.findings("TRACE_CONTEXT_POLLING"), [
        [
          "error",
          line,
          "turn 1: get_skillpilot_learning_context read the full context again without a conflict in between",
        ],
      ]);
    });

    it("stays quiet on a second read after a STATE_CONFLICT (the reload)", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(), { error: "STATE_CONFLICT" })
        .call(READ, {}, context(4));
      assert.deepEqual(trace.findings("TRACE_CONTEXT_POLLING"), []);
    });
  });

  describe("TRACE_CONTEXT_AFTER_WRITE", () => {
    it("fires on a context read after a successful write (its successor replaces it)", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(), { ok: { successor: { stateVersion: 4 } } });
      const line = trace.nextLine;
      trace.call(READ, {}, context(4));
      assert.deepEqual(trace.findings("TRACE_CONTEXT_AFTER_WRITE"), [
        [
          "error",
          line,
          "turn 1: get_skillpilot_learning_context re-read the full context after a successful write",
        ],
      ]);
    });

    it("stays quiet on a re-read after a write that conflicted", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, completeArgs(), { error: "STATE_CONFLICT" })
        .call(READ, {}, context(4));
      assert.deepEqual(trace.findings("TRACE_CONTEXT_AFTER_WRITE"), []);
    });
  });
});

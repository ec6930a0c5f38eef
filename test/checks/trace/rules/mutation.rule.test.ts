import assert from "node:assert/strict";
import { COMPLETE, completeArgs, context, READ, TraceScript } from "./support/trace-script.js";

const saved = { ok: { successor: { stateVersion: 4 } } };

describe("TRACE_SECOND_MUTATION (checks/trace/rules/mutation.rule.ts)", () => {
  it("fires on a second write in one turn", () => {
    const trace = new TraceScript()
      .learner()
      .call(READ, {}, context())
      .call(COMPLETE, completeArgs(), saved);
    const line = trace.nextLine;
    trace.call(COMPLETE, completeArgs(4, "7c3e2d2f-2222-4333-8444-555566667777"));
    assert.deepEqual(trace.findings("TRACE_SECOND_MUTATION"), [
      ["error", line, "turn 1: complete_skillpilot_goal is a second mutation in the turn"],
    ]);
  });

  it("stays quiet on the same two writes in two turns", () => {
    const trace = new TraceScript()
      .learner()
      .call(READ, {}, context())
      .call(COMPLETE, completeArgs(), saved)
      .learner()
      .call(READ, {}, context(4))
      .call(COMPLETE, completeArgs(4, "7c3e2d2f-2222-4333-8444-555566667777"));
    assert.deepEqual(trace.findings("TRACE_SECOND_MUTATION"), []);
  });
});

import assert from "node:assert/strict";
import { COMPLETE, completeArgs, context, READ, TraceScript } from "./support/trace-script.js";

const RENDER = "render_skillpilot_goal_visualization";

describe("checks/trace/rules/call-inputs.rule.ts", () => {
  describe("TRACE_UNISSUED_VALUE", () => {
    it("fires on a goalId the server never issued", () => {
      const trace = new TraceScript().learner().call(READ, {}, context(3, { goalId: "goal-1" }));
      const line = trace.nextLine;
      trace.call(RENDER, { goalId: "made-up-goal" });
      assert.deepEqual(trace.findings("TRACE_UNISSUED_VALUE"), [
        [
          "error",
          line,
          "turn 1: render_skillpilot_goal_visualization sent a goalId the server never issued earlier in the trace",
        ],
      ]);
    });

    it("stays quiet on the goalId the context issued", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context(3, { goalId: "goal-1" }))
        .call(RENDER, { goalId: "goal-1" });
      assert.deepEqual(trace.findings("TRACE_UNISSUED_VALUE"), []);
    });
  });

  describe("TRACE_PROSE_ARGUMENT", () => {
    it("fires on learner prose in an argument", () => {
      const trace = new TraceScript().learner().call(READ, {}, context());
      const line = trace.nextLine;
      trace.call(COMPLETE, { ...completeArgs(), decision: "I think I got it now" });
      assert.deepEqual(trace.findings("TRACE_PROSE_ARGUMENT"), [
        ["error", line, "turn 1: complete_skillpilot_goal sent prose in decision"],
      ]);
    });

    it("stays quiet on an enum value in the same argument", () => {
      const trace = new TraceScript()
        .learner()
        .call(READ, {}, context())
        .call(COMPLETE, { ...completeArgs(), decision: "needsMorePractice" });
      assert.deepEqual(trace.findings("TRACE_PROSE_ARGUMENT"), []);
    });
  });
});

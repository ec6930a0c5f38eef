import assert from "node:assert/strict";
import { context, READ, TraceScript } from "./support/trace-script.js";

const RECORD = "record_skillpilot_verified_recall_results";
const RENDER = "render_skillpilot_goal_visualization";
const CAPABILITY = "cap1.grading.0123456789abcdefghijklmnopqrstuv";
const chained = { goalId: "goal-1", expectedStateVersion: 4 };

/** A turn whose recall results come back with a continuation to render the goal. */
function recorded(): TraceScript {
  return new TraceScript()
    .learner()
    .call(READ, {}, context(3, { gradingCapability: CAPABILITY }))
    .call(
      RECORD,
      { gradingCapability: CAPABILITY, assessments: [{ passed: true }] },
      { ok: { continuation: { toolCall: { name: RENDER, arguments: chained } } } },
    );
}

describe("checks/trace/rules/continuation.rule.ts", () => {
  it("all three stay quiet when the continuation's call comes next, once, copied unchanged", () => {
    const trace = recorded().call(RENDER, chained);
    for (const rule of [
      "TRACE_CONTINUATION_NOT_FOLLOWED",
      "TRACE_CONTINUATION_ALTERED",
      "TRACE_CONTINUATION_REPEATED",
    ])
      assert.deepEqual(trace.findings(rule), [], rule);
  });

  describe("TRACE_CONTINUATION_NOT_FOLLOWED", () => {
    it("fires on another call in its place", () => {
      const trace = recorded();
      const line = trace.nextLine;
      trace.call("start_skillpilot_memory_practice").call(RENDER, chained);
      assert.deepEqual(trace.findings("TRACE_CONTINUATION_NOT_FOLLOWED"), [
        [
          "error",
          line,
          "turn 1: start_skillpilot_memory_practice was called instead of the continuation's render_skillpilot_goal_visualization",
        ],
      ]);
    });

    it("fires, at the answer, when it is never called", () => {
      const trace = recorded();
      assert.deepEqual(trace.findings("TRACE_CONTINUATION_NOT_FOLLOWED"), [
        [
          "error",
          trace.nextLine - 1,
          "turn 1: the continuation's render_skillpilot_goal_visualization was never called",
        ],
      ]);
    });
  });

  describe("TRACE_CONTINUATION_ALTERED", () => {
    it("fires on the continuation's call with changed arguments", () => {
      const trace = recorded();
      const line = trace.nextLine;
      trace.call(RENDER, { ...chained, expectedStateVersion: 5 });
      const [finding] = trace.findings("TRACE_CONTINUATION_ALTERED");
      assert.deepEqual(finding?.slice(0, 2), ["error", line]);
      assert.match(
        finding[2],
        /^turn 1: render_skillpilot_goal_visualization was called with arguments \{.*"expectedStateVersion":5.*\} instead of the continuation's \{.*"expectedStateVersion":4.*\}$/,
      );
    });
  });

  describe("TRACE_CONTINUATION_REPEATED", () => {
    it("fires on the continuation's call made a second time", () => {
      const trace = recorded().call(RENDER, chained);
      const line = trace.nextLine;
      trace.call(RENDER, chained);
      assert.deepEqual(trace.findings("TRACE_CONTINUATION_REPEATED"), [
        [
          "error",
          line,
          "turn 1: render_skillpilot_goal_visualization was called again after the continuation's call (which succeeded)",
        ],
      ]);
    });
  });
});

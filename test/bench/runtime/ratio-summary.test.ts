import assert from "node:assert/strict";
import {
  formatRatio,
  type Ratio,
  summarizeRatios,
  VERDICT_RUNS,
} from "../../../bench/runtime/ratio-summary.js";

const run = (context: number, extra: Ratio[] = []): Ratio[] => [
  { label: "context / peer", value: context, target: 1.0 },
  { label: "throughput", value: context * 2 },
  ...extra,
];

describe("bench ratio summary: a verdict only from the median of enough runs (issue #35 item 0)", () => {
  it("takes each ratio's median and range over the runs, in the order first seen", () => {
    const [context, throughput] = summarizeRatios([run(0.9), run(1.3), run(0.7)]);
    assert.deepEqual(context, {
      label: "context / peer",
      runs: 3,
      median: 0.9,
      min: 0.7,
      max: 1.3,
      target: 1.0,
      met: true,
    });
    assert.equal(throughput.label, "throughput");
    assert.equal(throughput.met, undefined);
    assert.equal(throughput.target, undefined);
  });

  it("judges by the median, not by the best or worst run", () => {
    const [missed] = summarizeRatios([run(0.5), run(1.2), run(1.1)]);
    assert.equal(missed.median, 1.1);
    assert.equal(missed.met, false);
    assert.match(formatRatio(missed, 20), /target <= 1: NOT met by the median/);
    const [met] = summarizeRatios([run(1.0), run(1.4), run(0.2), run(0.9)]);
    assert.equal(met.median, 0.95);
    assert.equal(met.met, true);
  });

  it(`gives no verdict from fewer than ${VERDICT_RUNS} runs, and says how to get one`, () => {
    for (const runs of [[run(0.5)], [run(0.5), run(0.6)]]) {
      const [s] = summarizeRatios(runs);
      assert.equal(s.met, undefined);
      const line = formatRatio(s, 20);
      assert.match(line, /no verdict from [12] runs? \(a verdict needs --repeat 3\)/);
      assert.doesNotMatch(line, /\bmet\b/);
    }
  });

  it("leaves runs without a number out (a missing CPU figure), and says when none measured it", () => {
    const [s] = summarizeRatios([run(Number.NaN), run(0.8), run(0.6), run(0.7)]);
    assert.equal(s.runs, 3);
    assert.equal(s.median, 0.7);
    assert.equal(s.met, true);
    const [none] = summarizeRatios([run(Number.NaN), run(Number.NaN), run(Number.NaN)]);
    assert.equal(none.runs, 0);
    assert.equal(none.met, undefined);
    assert.match(formatRatio(none, 20), /n\/a \(not measured\)/);
  });

  it("keeps a ratio only some runs produce, and a goal in words without a verdict", () => {
    const lane: Ratio = { label: "lane / context", value: 1.02, goal: "within noise of 1.00" };
    const summaries = summarizeRatios([run(0.9), run(0.8, [lane]), run(0.7)]);
    assert.deepEqual(
      summaries.map((s) => s.label),
      ["context / peer", "throughput", "lane / context"],
    );
    const line = formatRatio(summaries[2], 16);
    assert.equal(line, "lane / context    1.02x  target: within noise of 1.00");
  });

  it("prints the range with negative values readably", () => {
    const ratio = (value: number): Ratio[] => [{ label: "a - b", value, target: 0.15 }];
    const [s] = summarizeRatios([ratio(-0.42), ratio(-0.23), ratio(-0.3)]);
    assert.equal(
      formatRatio(s, 6),
      "a - b  -0.30x  (-0.42 to -0.23 over 3 runs)  target <= 0.15: met by the median",
    );
  });
});

/**
 * The ratios a benchmark run produces, summarized over repeated runs: each ratio's median and range,
 * and a verdict on its target only when enough runs back it. One run's ratios move by up to ±30%
 * between runs on a shared machine, so a single run can say how a figure looks, never whether a
 * target is met.
 */
import { median } from "./load-driver.js";

/** One figure of one run: a ratio, with the target it must not exceed, if it has one. */
export interface Ratio {
  label: string;
  value: number;
  /** The ratio meets its target when it is at most this. */
  target?: number;
  /** What is expected of a ratio without a numeric target (e.g. "within noise of 1.00"). */
  goal?: string;
}

/** A target is met when the median of at least this many runs meets it. */
export const VERDICT_RUNS = 3;

/** A ratio over all runs. */
export interface RatioSummary {
  label: string;
  /** Runs that produced a number for it. */
  runs: number;
  median: number;
  min: number;
  max: number;
  target?: number;
  goal?: string;
  /** Only with a target: undefined until VERDICT_RUNS runs back the median. */
  met?: boolean;
}

/** Summarize each ratio (by label, in the order first seen) over the runs that measured it. */
export function summarizeRatios(runs: readonly (readonly Ratio[])[]): RatioSummary[] {
  const byLabel = new Map<string, { first: Ratio; values: number[] }>();
  for (const run of runs)
    for (const ratio of run) {
      const entry = byLabel.get(ratio.label) ?? { first: ratio, values: [] };
      byLabel.set(ratio.label, entry);
      if (Number.isFinite(ratio.value)) entry.values.push(ratio.value);
    }
  return [...byLabel.values()].map(({ first, values }) => {
    const mid = values.length ? median(values) : Number.NaN;
    return {
      label: first.label,
      runs: values.length,
      median: mid,
      min: values.length ? Math.min(...values) : Number.NaN,
      max: values.length ? Math.max(...values) : Number.NaN,
      ...(first.target !== undefined && {
        target: first.target,
        met: values.length >= VERDICT_RUNS ? mid <= first.target : undefined,
      }),
      ...(first.goal !== undefined && { goal: first.goal }),
    };
  });
}

/**
 * One line per ratio: its median, the range over the runs, and its target with the verdict, e.g.
 * `complete … 0.81x  (0.75 to 0.86 over 3 runs)  target <= 1.1: met by the median`.
 */
export function formatRatio(s: RatioSummary, labelWidth: number): string {
  const x = (v: number) => `${v.toFixed(2)}x`;
  if (s.runs === 0) return `${s.label.padEnd(labelWidth)} n/a (not measured)`;
  const spread =
    s.runs > 1 ? `  (${s.min.toFixed(2)} to ${s.max.toFixed(2)} over ${s.runs} runs)` : "";
  let target = "";
  if (s.target !== undefined)
    target =
      s.met === undefined
        ? `  target <= ${s.target}: no verdict from ${s.runs} run${s.runs === 1 ? "" : "s"} ` +
          `(a verdict needs --repeat ${VERDICT_RUNS})`
        : `  target <= ${s.target}: ${s.met ? "met" : "NOT met"} by the median`;
  else if (s.goal) target = `  target: ${s.goal}`;
  return `${s.label.padEnd(labelWidth)} ${x(s.median).padStart(6)}${spread}${target}`;
}

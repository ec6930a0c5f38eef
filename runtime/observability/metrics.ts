import { Counter, Histogram, Registry } from "prom-client";

/** Metric labels, bounded to the L13 set: never a session, learner, request or revision. */
export const metricLabels = ["contractMajor", "pluginLine", "toolName", "status", "resultCode"] as const;
type Label = (typeof metricLabels)[number];

/** The series of one (tool, outcome) pair. */
export interface CallSeries {
  calls: { inc(): void };
  latency: { observe(seconds: number): void };
}

/** The runtime's Prometheus metrics, in their own registry (one per server instance). */
export interface RuntimeMetrics {
  registry: Registry;
  calls: Counter<Label>;
  latency: Histogram<Label>;
  /**
   * The counter and histogram children of one call outcome, bound once per label set (a bounded
   * set: contract tools × result codes), so a call does not hash its labels again.
   */
  series(labels: Record<Label, string>): CallSeries;
}

/** Create the registry with the tool-call counter and latency histogram. */
export function createMetrics(): RuntimeMetrics {
  const registry = new Registry();
  const calls = new Counter({ name: "skillpilot_tool_calls_total", help: "MCP tool calls by outcome.", labelNames: metricLabels, registers: [registry] });
  const latency = new Histogram({
    name: "skillpilot_tool_call_duration_seconds",
    help: "MCP tool call latency.",
    labelNames: metricLabels,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const bound = new Map<string, CallSeries>();
  const series = (labels: Record<Label, string>): CallSeries => {
    const key = metricLabels.map((name) => labels[name]).join("\u0000");
    let found = bound.get(key);
    if (!found) bound.set(key, (found = { calls: calls.labels(labels), latency: latency.labels(labels) }));
    return found;
  };
  return { registry, calls, latency, series };
}

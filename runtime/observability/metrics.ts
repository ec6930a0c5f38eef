import { Counter, Histogram, Registry } from "prom-client";
import { schemaCompilations } from "../../json-schema/schema-compilations.js";

/** Metric labels, bounded to the L13 set: never a session, learner, request or revision. */
export const metricLabels = [
  "contractMajor",
  "pluginLine",
  "toolName",
  "status",
  "resultCode",
] as const;
type Label = (typeof metricLabels)[number];

/**
 * Labels of the turn-contract deviation counter: the line (as on every metric) and the deviation's
 * kind, a closed set of six values (turn-monitor.ts) — never a session, tool argument or revision.
 */
export const deviationLabels = ["contractMajor", "pluginLine", "kind"] as const;

/** The runtime's Prometheus metrics, in their own registry (one per server instance). */
export interface RuntimeMetrics {
  registry: Registry;
  calls: Counter<Label>;
  latency: Histogram<Label>;
  /** Turn-contract deviations the server saw on its own (C2, C13, G10). */
  deviations: Counter<(typeof deviationLabels)[number]>;
  /** OpenTelemetry spans lost: the export queue was full, or their export failed. */
  spansDropped: Counter<"reason">;
  /**
   * JSON Schema validators compiled in this process (`schemaCompilations`), brought up to date on
   * every scrape: it moves at start and should never move after (a validator compiled per request
   * is a leak of memory and time).
   */
  schemaCompilations: Counter;
}

/** Create the registry with the tool-call counter and latency histogram. */
export function createMetrics(): RuntimeMetrics {
  const registry = new Registry();
  const calls = new Counter({
    name: "skillpilot_tool_calls_total",
    help: "MCP tool calls by outcome.",
    labelNames: metricLabels,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "skillpilot_tool_call_duration_seconds",
    help: "MCP tool call latency.",
    labelNames: metricLabels,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const deviations = new Counter({
    name: "coach_turn_contract_deviations_total",
    help: "Turn-contract deviations seen in hosts' calls (never refused): kind is context_repoll, context_after_write, continuation_not_followed, continuation_altered, recall_recorded_without_consent or successor_without_consent.",
    labelNames: deviationLabels,
    registers: [registry],
  });
  const spansDropped = new Counter({
    name: "skillpilot_trace_spans_dropped_total",
    help: "OpenTelemetry spans never exported: reason is queue_full (the bounded export queue was full) or export_failed (the collector did not take them).",
    labelNames: ["reason"],
    registers: [registry],
  });
  let reported = 0;
  const compilations = new Counter({
    name: "skillpilot_schema_compilations_total",
    help: "JSON Schema validators compiled in this process (the generated ones are precompiled and do not count): moves at start, then stays flat.",
    registers: [registry],
    collect() {
      const now = schemaCompilations();
      this.inc(now - reported);
      reported = now;
    },
  });
  return {
    registry,
    calls,
    latency,
    deviations,
    spansDropped,
    schemaCompilations: compilations,
  };
}

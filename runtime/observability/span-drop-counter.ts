import { createNoopMeter, type Counter, type Meter, type MeterProvider } from "@opentelemetry/api";

/** Why a finished span never reached the collector: the closed set of `reason` label values. */
export type SpanDropReason = "queue_full" | "export_failed";

/** Where lost spans are counted (the runtime's Prometheus counter). */
export interface SpanDropCounter {
  inc(labels: { reason: SpanDropReason }, value: number): void;
}

/**
 * The span processor's own count of finished spans (OpenTelemetry SDK self-observability,
 * `otel.sdk.processor.span.processed`): `error.type` is `queue_full` for a span dropped because the
 * export queue was full, an error's name for a span whose export failed, absent for one exported.
 */
const PROCESSED = "otel.sdk.processor.span.processed";

/**
 * A MeterProvider for the SDK batch processor's self-observability that feeds only its lost spans
 * into `counter` — every other instrument is a no-op. The processor counts them itself, at the
 * moment it drops them, so nothing is added to the call path.
 */
export function spanDropMeterProvider(counter: SpanDropCounter): MeterProvider {
  const noop = createNoopMeter();
  const processed: Counter = {
    add(value, attributes) {
      const error = attributes?.["error.type"];
      if (error === undefined) return;
      counter.inc({ reason: error === "queue_full" ? "queue_full" : "export_failed" }, value);
    },
  };
  const meter: Meter = Object.assign(Object.create(noop) as Meter, {
    createCounter: (name: string) => (name === PROCESSED ? processed : noop.createCounter(name)),
  });
  return { getMeter: () => meter };
}

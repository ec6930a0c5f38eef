import type { JsonRpcMessage } from "../../contract-model/trace/trace-event.js";
import type { ToolShape, TurnFacts } from "../../contract-model/trace/turn-facts.js";
import type { McpTracing, TracingSettings } from "./tracing.js";
import { SelfTrace } from "./self-trace.js";

/** What sees the raw MCP traffic: the server's own trace and OpenTelemetry spans. */
export interface TrafficTaps {
  /**
   * The client messages of one HTTP request (and the protocol version its header names); returns
   * what to call with the server's answers once they are known.
   */
  exchange(
    messages: readonly JsonRpcMessage[],
    protocolVersion: string | undefined,
  ): (answers: readonly JsonRpcMessage[]) => void;
  close(): Promise<void>;
}

/** What the taps are built from: configuration and the contract the endpoint serves. */
export interface TrafficTapOptions {
  /** The self-trace file (config `traceFile`); unset: no self-trace. */
  traceFile?: string;
  /** OTLP export (config `openTelemetry`); unset: no spans. */
  tracing?: TracingSettings;
  logHmacKey: string;
  facts: TurnFacts;
  tools: readonly ToolShape[];
}

/**
 * Open the configured taps; undefined when none is configured, so the MCP endpoint runs exactly as
 * without them (nothing parsed, cloned or loaded: the OpenTelemetry SDK is imported only here).
 */
export async function openTrafficTaps(
  options: TrafficTapOptions,
): Promise<TrafficTaps | undefined> {
  if (!options.traceFile && !options.tracing) return undefined;
  const trace = options.traceFile
    ? await SelfTrace.open(options.traceFile, options.logHmacKey, options.facts, options.tools)
    : undefined;
  let tracing: McpTracing | undefined;
  if (options.tracing) {
    const { McpTracing } = await import("./tracing.js");
    tracing = McpTracing.create(options.tracing);
  }
  const idOf = (m: JsonRpcMessage) => (m.id === undefined ? undefined : JSON.stringify(m.id));
  return {
    exchange(messages, protocolVersion) {
      trace?.record("client", messages);
      const spans = tracing
        ? messages.map((m) => ({ id: idOf(m), span: tracing.start(m, protocolVersion) }))
        : [];
      return (answers) => {
        trace?.record("server", answers);
        for (const { id, span } of spans)
          if (span)
            tracing?.end(span, id === undefined ? undefined : answers.find((a) => idOf(a) === id));
      };
    },
    async close() {
      await Promise.all([trace?.close(), tracing?.close()]);
    },
  };
}

import {
  type Attributes,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type BufferConfig,
} from "@opentelemetry/sdk-trace-base";
import type { OtlpProtocol } from "../config/config-env.js";
import type { JsonRpcMessage } from "../../contract-model/trace/trace-event.js";
import { type SpanDropCounter, spanDropMeterProvider } from "./span-drop-counter.js";

/** Where spans go. */
export interface TracingSettings {
  /** OTLP/HTTP traces endpoint, e.g. http://collector:4318/v1/traces. */
  tracesEndpoint: string;
  serviceName: string;
  serviceVersion: string;
  /**
   * The OTLP/HTTP encoding: binary Protobuf (the default; about half the exporter's CPU per span
   * of JSON's, a third of its bytes) or JSON, for a receiver that only reads JSON.
   */
  protocol?: OtlpProtocol;
}

const leadingCode = /^([A-Z][A-Z0-9_]{2,}):/;
const propagator = new W3CTraceContextPropagator();
const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;

/**
 * One MCP message's span as the call path measures it: its name, its attributes and its times.
 * It becomes an SDK span later, in a batch (`McpTracing.flush`).
 */
export interface TracedMessage {
  name: string;
  /** Every attribute, those of the answer added when it is known. */
  attributes: Attributes;
  /** `performance.now()` when the message arrived and when its answer was known. */
  startTime: number;
  endTime: number;
  /** The host's W3C trace context from `params._meta`, if it sent one. */
  traceparent?: string;
  tracestate?: string;
  /** The ui:// URI a resources/read asked for: an attribute once it was served. */
  uri?: string;
  /** Set for a failed message: the span's status is ERROR with this message. */
  errorMessage?: string;
}

/** Finished messages that make a batch of spans at once, and how long one may wait for it. */
const BATCH_SPANS = 128;
/** How long a finished message may wait before its span is made (ms). */
export const SPAN_BATCH_MS = 100;

/**
 * OpenTelemetry spans of the MCP traffic, per the OpenTelemetry MCP semantic conventions: one
 * SERVER span per request or notification, named `{mcp.method.name} {gen_ai.tool.name}` (or the
 * method alone), its parent taken from `params._meta.traceparent`/`tracestate` when the host sends
 * them, with `mcp.method.name`, `jsonrpc.request.id`, `gen_ai.tool.name` and
 * `gen_ai.operation.name` (tools/call), `mcp.resource.uri` (a served ui:// page),
 * `mcp.protocol.version`, `network.transport`,
 * `network.protocol.name`, the contract's result code (`coach.result_code`), and on failure
 * `error.type` (`tool_error` or the JSON-RPC code) and `rpc.response.status_code`. No learner data:
 * no arguments, results, session ids or messages. The provider is not registered globally.
 *
 * A call pays only for noting its span's name, attributes and times (`start`, `end`): the SDK spans
 * are made from those notes in batches (up to BATCH_SPANS, at most SPAN_BATCH_MS later), with the
 * times measured on the call, so the exported spans are the same while the SDK's span machinery
 * runs in one warm loop instead of once inside every call. Export never touches a call either:
 * a finished span goes into the SDK's batch processor's bounded queue (`OTEL_BSP_MAX_QUEUE_SIZE`,
 * default 2048) and is sent over OTLP/HTTP (binary Protobuf unless `protocol` says JSON) in
 * batches, on the event loop's own time, never awaited by a request. A slow or dead collector fills
 * the queue; the spans that find it full are dropped, and counted (`spansDropped`, reason
 * `queue_full`), as are those whose export failed (`export_failed`). The other `OTEL_BSP_*` and
 * `OTEL_EXPORTER_OTLP_TRACES_*` variables tune the batches and the exporter as the SDK documents.
 */
export class McpTracing {
  private finished: TracedMessage[] = [];
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly provider: BasicTracerProvider,
    private readonly tracer: Tracer,
  ) {}

  static create(settings: TracingSettings, spansDropped?: SpanDropCounter): McpTracing {
    // The processor's self-observability option is not in the shim's config type (it passes it on).
    const batching: BufferConfig & Record<string, unknown> = spansDropped
      ? { selfObsMeterProvider: spanDropMeterProvider(spansDropped) }
      : {};
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        "service.name": settings.serviceName,
        "service.version": settings.serviceVersion,
      }),
      spanProcessors: [
        new BatchSpanProcessor(
          settings.protocol === "http/json"
            ? new JsonExporter({ url: settings.tracesEndpoint })
            : new ProtobufExporter({ url: settings.tracesEndpoint }),
          batching,
        ),
      ],
    });
    return new McpTracing(
      provider,
      provider.getTracer("skillpilot-coach", settings.serviceVersion),
    );
  }

  /** Note the span of one client message; `protocolVersion` from the HTTP header, if any. */
  start(message: JsonRpcMessage, protocolVersion: string | undefined): TracedMessage | undefined {
    const startTime = performance.now();
    const method = message.method;
    if (typeof method !== "string") return undefined;
    const params = asObject(message.params);
    const meta = asObject(params?._meta) ?? {};
    const tool =
      method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
    const version =
      (typeof meta["io.modelcontextprotocol/protocolVersion"] === "string"
        ? meta["io.modelcontextprotocol/protocolVersion"]
        : undefined) ??
      (method === "initialize" && typeof params?.protocolVersion === "string"
        ? params.protocolVersion
        : protocolVersion);
    const attributes: Attributes = {
      "mcp.method.name": method,
      "network.transport": "tcp",
      "network.protocol.name": "http",
    };
    if (message.id !== undefined && message.id !== null)
      attributes["jsonrpc.request.id"] = String(message.id);
    if (tool) {
      attributes["gen_ai.tool.name"] = tool;
      attributes["gen_ai.operation.name"] = "execute_tool";
    }
    if (version) attributes["mcp.protocol.version"] = version;
    const traced: TracedMessage = {
      name: tool ? `${method} ${tool}` : method,
      attributes,
      startTime,
      endTime: startTime,
    };
    if (typeof meta.traceparent === "string") {
      traced.traceparent = meta.traceparent;
      if (typeof meta.tracestate === "string") traced.tracestate = meta.tracestate;
    }
    if (
      method === "resources/read" &&
      typeof params?.uri === "string" &&
      params.uri.startsWith("ui://")
    )
      traced.uri = params.uri;
    return traced;
  }

  /** End a message's span with its answer (undefined for a notification). */
  end(traced: TracedMessage, answer: JsonRpcMessage | undefined): void {
    const error = asObject(answer?.error);
    const result = asObject(answer?.result);
    const { attributes } = traced;
    if (error) {
      const code = String(error.code);
      attributes["error.type"] = code;
      attributes["rpc.response.status_code"] = code;
      traced.errorMessage = code;
    } else if (result?.isError === true) {
      const block = Array.isArray(result.content) ? asObject(result.content[0]) : undefined;
      const code = leadingCode.exec(typeof block?.text === "string" ? block.text : "")?.[1];
      attributes["error.type"] = "tool_error";
      attributes["coach.result_code"] = code ?? "TOOL_ERROR";
      traced.errorMessage = code ?? "tool_error";
    } else if (result) {
      this.endOk(traced);
      return;
    }
    this.finish(traced);
  }

  /**
   * End a message's span whose answer was a plain result (no JSON-RPC error, no tool error): what
   * `end` does with such an answer, without it.
   */
  endOk(traced: TracedMessage): void {
    traced.attributes["coach.result_code"] = "OK";
    if (traced.uri) traced.attributes["mcp.resource.uri"] = traced.uri;
    this.finish(traced);
  }

  private finish(traced: TracedMessage): void {
    traced.endTime = performance.now();
    this.finished.push(traced);
    if (this.finished.length >= BATCH_SPANS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), SPAN_BATCH_MS).unref();
  }

  /** Make the SDK spans of the finished messages, with the times measured on their calls. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.finished;
    this.finished = [];
    try {
      for (const traced of batch) this.makeSpan(traced);
    } catch {
      // Spans never fail the server: a batch the SDK refuses is lost, not thrown from a timer.
    }
  }

  /** One SDK span from a finished message, with the times measured on its call. */
  private makeSpan(traced: TracedMessage): void {
    const parent =
      traced.traceparent === undefined
        ? ROOT_CONTEXT
        : propagator.extract(
            ROOT_CONTEXT,
            { traceparent: traced.traceparent, tracestate: traced.tracestate },
            defaultTextMapGetter,
          );
    const span = this.tracer.startSpan(
      traced.name,
      { kind: SpanKind.SERVER, attributes: traced.attributes, startTime: traced.startTime },
      parent,
    );
    if (traced.errorMessage !== undefined)
      span.setStatus({ code: SpanStatusCode.ERROR, message: traced.errorMessage });
    span.end(traced.endTime);
  }

  /**
   * Export what is buffered and stop. A collector that cannot take the last spans (down, failing)
   * loses them (counted as `export_failed`) and never fails the server's stop.
   */
  async close(): Promise<void> {
    this.flush();
    await this.provider.shutdown().catch(() => undefined);
  }
}

import {
  type Attributes,
  context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type BufferConfig,
} from "@opentelemetry/sdk-trace-base";
import type { JsonRpcMessage } from "../../contract-model/trace/trace-event.js";
import { type SpanDropCounter, spanDropMeterProvider } from "./span-drop-counter.js";

/** Where spans go. */
export interface TracingSettings {
  /** OTLP/HTTP traces endpoint, e.g. http://collector:4318/v1/traces. */
  tracesEndpoint: string;
  serviceName: string;
  serviceVersion: string;
}

const leadingCode = /^([A-Z][A-Z0-9_]{2,}):/;
const propagator = new W3CTraceContextPropagator();
const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;

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
 * Export never touches a call: a finished span goes into the SDK's batch processor's bounded queue
 * (`OTEL_BSP_MAX_QUEUE_SIZE`, default 2048) and is sent over OTLP/HTTP in batches, on the event
 * loop's own time, never awaited by a request. A slow or dead collector fills the queue; the spans
 * that find it full are dropped, and counted (`spansDropped`, reason `queue_full`), as are those
 * whose export failed (`export_failed`). The other `OTEL_BSP_*` and `OTEL_EXPORTER_OTLP_TRACES_*`
 * variables tune the batches and the exporter as the SDK documents.
 */
export class McpTracing {
  /** The ui:// URI a resources/read span asked for, recorded once it was served. */
  private readonly uris = new WeakMap<Span, string>();

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
        new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesEndpoint }), batching),
      ],
    });
    return new McpTracing(
      provider,
      provider.getTracer("skillpilot-coach", settings.serviceVersion),
    );
  }

  /** Start the span of one client message; `protocolVersion` from the HTTP header, if any. */
  start(message: JsonRpcMessage, protocolVersion: string | undefined): Span | undefined {
    const method = message.method;
    if (typeof method !== "string") return undefined;
    const params = asObject(message.params);
    const meta = asObject(params?._meta) ?? {};
    const parent =
      typeof meta.traceparent === "string"
        ? propagator.extract(ROOT_CONTEXT, meta, defaultTextMapGetter)
        : context.active();
    const tool =
      method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
    const version =
      (typeof meta["io.modelcontextprotocol/protocolVersion"] === "string"
        ? meta["io.modelcontextprotocol/protocolVersion"]
        : undefined) ??
      (method === "initialize" && typeof params?.protocolVersion === "string"
        ? params.protocolVersion
        : protocolVersion);
    // Every attribute known at the start, in one object built once (the SDK copies it once).
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
    const span = this.tracer.startSpan(
      tool ? `${method} ${tool}` : method,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    if (
      method === "resources/read" &&
      typeof params?.uri === "string" &&
      params.uri.startsWith("ui://")
    )
      this.uris.set(span, params.uri);
    return span;
  }

  /** End a span with the answer to its message (undefined for a notification). */
  end(span: Span, answer: JsonRpcMessage | undefined): void {
    const error = asObject(answer?.error);
    const result = asObject(answer?.result);
    if (error) {
      const code = String(error.code);
      span.setAttributes({ "error.type": code, "rpc.response.status_code": code });
      span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    } else if (result?.isError === true) {
      const block = Array.isArray(result.content) ? asObject(result.content[0]) : undefined;
      const code = leadingCode.exec(typeof block?.text === "string" ? block.text : "")?.[1];
      span.setAttributes({ "error.type": "tool_error", "coach.result_code": code ?? "TOOL_ERROR" });
      span.setStatus({ code: SpanStatusCode.ERROR, message: code ?? "tool_error" });
    } else if (result) {
      this.endOk(span);
      return;
    }
    span.end();
  }

  /**
   * End a span whose message was answered with a plain result (no JSON-RPC error, no tool error):
   * what `end` does with such an answer, without it.
   */
  endOk(span: Span): void {
    span.setAttribute("coach.result_code", "OK");
    const uri = this.uris.get(span);
    if (uri) span.setAttribute("mcp.resource.uri", uri);
    span.end();
  }

  /**
   * Export what is buffered and stop. A collector that cannot take the last spans (down, failing)
   * loses them (counted as `export_failed`) and never fails the server's stop.
   */
  async close(): Promise<void> {
    await this.provider.shutdown().catch(() => undefined);
  }
}

import {
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
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { JsonRpcMessage } from "../../contract-model/trace/trace-event.js";

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
 * no arguments, results, session ids or messages. Exported over OTLP/HTTP in batches (the SDK's
 * exporter); the provider is not registered globally.
 */
export class McpTracing {
  /** The ui:// URI a resources/read span asked for, recorded once it was served. */
  private readonly uris = new WeakMap<Span, string>();

  private constructor(
    private readonly provider: BasicTracerProvider,
    private readonly tracer: Tracer,
  ) {}

  static create(settings: TracingSettings): McpTracing {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        "service.name": settings.serviceName,
        "service.version": settings.serviceVersion,
      }),
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesEndpoint })),
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
    const span = this.tracer.startSpan(
      tool ? `${method} ${tool}` : method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "mcp.method.name": method,
          "network.transport": "tcp",
          "network.protocol.name": "http",
          ...(message.id !== undefined &&
            message.id !== null && { "jsonrpc.request.id": String(message.id) }),
          ...(tool && { "gen_ai.tool.name": tool, "gen_ai.operation.name": "execute_tool" }),
          ...(version && { "mcp.protocol.version": version }),
        },
      },
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
      span.setAttribute("coach.result_code", "OK");
      const uri = this.uris.get(span);
      if (uri) span.setAttribute("mcp.resource.uri", uri);
    }
    span.end();
  }

  /** Export what is buffered and stop. */
  close(): Promise<void> {
    return this.provider.shutdown();
  }
}

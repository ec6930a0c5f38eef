import { answerMessages, type JsonRpcMessage } from "../../contract-model/trace/trace-event.js";
import type { ToolShape, TurnFacts } from "../../contract-model/trace/turn-facts.js";
import { SelfTrace } from "./self-trace.js";
import type { SpanDropCounter } from "./span-drop-counter.js";
import type { McpTracing, TracedMessage, TracingSettings } from "./tracing.js";

/**
 * The server's HTTP answer to one request, as its body's bytes: decoded and parsed only when a tap
 * needs its messages.
 */
export interface TappedAnswer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/** What sees the raw MCP traffic: the server's own trace and OpenTelemetry spans. */
export interface TrafficTaps {
  /**
   * The client messages of one HTTP request (and the protocol version its header names); returns
   * what to call with the server's answer once it is known (undefined: none could be read).
   */
  exchange(
    messages: readonly JsonRpcMessage[],
    protocolVersion: string | undefined,
  ): (answer: TappedAnswer | undefined) => void;
  close(): Promise<void>;
}

/** What the taps are built from: configuration and the contract the endpoint serves. */
export interface TrafficTapOptions {
  /** The self-trace file (config `traceFile`); unset: no self-trace. */
  traceFile?: string;
  /** OTLP export (config `openTelemetry`); unset: no spans. */
  tracing?: TracingSettings;
  /** Where spans lost on the way to the collector are counted. */
  spansDropped?: SpanDropCounter;
  logHmacKey: string;
  facts: TurnFacts;
  tools: readonly ToolShape[];
}

/** A JSON-RPC id as a map key (a string id and a number id never meet). */
const idKey = (id: unknown) => JSON.stringify(id);

const OPEN_BRACE = 0x7b;

/**
 * Whether an answer is one plain JSON-RPC result: a 200 JSON object with a `result` whose bytes
 * name no `error` and no `isError` member anywhere (JSON never escapes a letter of a member name,
 * and UTF-8 never puts an ASCII byte inside another character), so neither a JSON-RPC error nor a
 * tool error — a span's outcome known without decoding or parsing the answer.
 */
function plainResult(answer: TappedAnswer | undefined): boolean {
  if (answer?.status !== 200 || !answer.contentType?.startsWith("application/json")) return false;
  const { body } = answer;
  return (
    body[0] === OPEN_BRACE &&
    body.includes('"result"') &&
    !body.includes('"error"') &&
    !body.includes('"isError"')
  );
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
    tracing = McpTracing.create(options.tracing, options.spansDropped);
  }
  return {
    exchange(messages, protocolVersion) {
      trace?.record("client", messages);
      const spans = tracing ? startSpans(tracing, messages, protocolVersion) : [];
      return (answer) => {
        // The answer's messages, parsed at most once, and only when a tap needs them.
        let parsed: JsonRpcMessage[] | undefined;
        const answers = () =>
          (parsed ??= answer ? answerMessages(answer.contentType, answer.body.toString()) : []);
        trace?.record("server", answers());
        if (!tracing || spans.length === 0) return;
        const [only] = spans;
        if (spans.length === 1 && only.id !== undefined && plainResult(answer)) {
          tracing.endOk(only.traced);
          return;
        }
        const byId = new Map<string, JsonRpcMessage>();
        for (const a of answers()) if (a.id !== undefined) byId.set(idKey(a.id), a);
        for (const { id, traced } of spans)
          tracing.end(traced, id === undefined ? undefined : byId.get(id));
      };
    },
    async close() {
      await Promise.all([trace?.close(), tracing?.close()]);
    },
  };
}

/** A span per client message that has one (requests, notifications), keyed by its id if any. */
function startSpans(
  tracing: McpTracing,
  messages: readonly JsonRpcMessage[],
  protocolVersion: string | undefined,
) {
  const spans: { id: string | undefined; traced: TracedMessage }[] = [];
  for (const m of messages) {
    const traced = tracing.start(m, protocolVersion);
    if (traced) spans.push({ id: m.id === undefined ? undefined : idKey(m.id), traced });
  }
  return spans;
}

/**
 * The trace format: JSON Lines, one event per line. A message event is one JSON-RPC message as it
 * crossed the wire (a request, a notification, a result or an error, either protocol era); a
 * learner-message event marks the start of a turn; an unrecorded event stands for a message a recorder
 * forwarded but could not record. `at` is an ISO-8601 timestamp.
 */

/** One JSON-RPC message, as parsed JSON. */
export type JsonRpcMessage = Record<string, unknown>;

/** A message from the client (host) or the server. */
export interface MessageEvent {
  at: string;
  from: "client" | "server";
  message: JsonRpcMessage;
}

/** A new learner message: a turn starts. */
export interface LearnerMessageEvent {
  at: string;
  learnerMessage: true;
}

/** Why a message that crossed the wire is not in the trace. */
export type UnrecordedReason = "tooLarge" | "tooDeep" | "notUtf8" | "notJson";

/**
 * A message (or SSE event) a recording proxy forwarded unchanged but could not record: too large,
 * nested too deep, not UTF-8 or not JSON. `answers` holds the JSON-RPC ids of the recorded request
 * an unrecorded answer belongs to, when the recorder knows them.
 */
export interface UnrecordedEvent {
  at: string;
  from: "client" | "server";
  unrecorded: { reason: UnrecordedReason; answers?: unknown[] };
}

/** One line of a trace. */
export type TraceEvent = MessageEvent | LearnerMessageEvent | UnrecordedEvent;

/** The JSON Lines text of one event (with its newline). */
export function traceLine(event: TraceEvent): string {
  return `${JSON.stringify(event)}\n`;
}

/** The JSON-RPC messages of a body: one message, or each message of a batch. */
export function messagesOf(body: unknown): JsonRpcMessage[] {
  const list = Array.isArray(body) ? body : [body];
  return list.filter(
    (m): m is JsonRpcMessage => typeof m === "object" && m !== null && !Array.isArray(m),
  );
}

/**
 * The JSON-RPC messages of a server's HTTP answer: a JSON body, or the `data:` lines of an SSE
 * stream (the 2025 stateless answer). Text that is neither yields none.
 */
export function answerMessages(contentType: string | undefined, text: string): JsonRpcMessage[] {
  const parse = (json: string) => {
    try {
      return messagesOf(JSON.parse(json));
    } catch {
      return [];
    }
  };
  if (contentType?.includes("text/event-stream"))
    return text.split(/\r?\n\r?\n/).flatMap((event) => {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""));
      return data.length ? parse(data.join("\n")) : [];
    });
  return text.trim() ? parse(text) : [];
}

import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { messagesOf } from "../../contract-model/trace/trace-event.js";
import type { TrafficTaps } from "../observability/traffic-taps.js";

/** Tapped JSON answers waiting for their body, as the writer reads it. */
const awaitingBody = new WeakMap<Response, (body: Uint8Array) => void>();

/**
 * The writer of an MCP handler's answer (the fetch bridge) read a JSON answer's body and wrote it:
 * the taps waiting for that answer see it now, so the body is read once, by its writer — never
 * cloned, never read twice.
 */
export function answerWritten(response: Response, body: Uint8Array): void {
  const tap = awaitingBody.get(response);
  if (!tap) return;
  awaitingBody.delete(response);
  tap(body);
}

/**
 * Let the configured traffic taps (a self-trace, OpenTelemetry spans) see each JSON-RPC message
 * an MCP handler receives and answers. Without taps the handler is returned as it is: no cost.
 * A body already parsed upstream (`parsedBody`) is used as it is. A JSON answer is seen as its
 * writer reads it (`answerWritten`, called by the fetch bridge); a stream (`text/event-stream`,
 * which may stay open for long) is read from a clone. Either way the taps run after the answer
 * went out, on the event loop's next turn.
 */
export function tapTraffic(handler: McpHttpHandler, taps: TrafficTaps | undefined): McpHttpHandler {
  if (!taps) return handler;
  return {
    ...handler,
    fetch: async (request, options) => {
      let body = options?.parsedBody;
      if (body === undefined && request.method.toUpperCase() === "POST") {
        try {
          body = JSON.parse(await request.clone().text());
        } catch {
          body = undefined;
        }
      }
      const messages = body === undefined ? [] : messagesOf(body);
      const done = taps.exchange(
        messages,
        request.headers.get("mcp-protocol-version") ?? undefined,
      );
      const response = await handler.fetch(request, options);
      const { status } = response;
      const contentType = response.headers.get("content-type") ?? undefined;
      const later = (body: Buffer | undefined) =>
        setImmediate(() => {
          try {
            done(body === undefined ? undefined : { status, contentType, body });
          } catch {
            // A tap never fails a call.
          }
        });
      if (response.body === null) later(EMPTY);
      else if (contentType?.startsWith("text/event-stream"))
        void response
          .clone()
          .arrayBuffer()
          .then(
            (bytes) => later(Buffer.from(bytes)),
            () => later(undefined),
          );
      else
        awaitingBody.set(response, (bytes) =>
          later(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
        );
      return response;
    },
  };
}

const EMPTY = Buffer.alloc(0);

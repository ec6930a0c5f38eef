import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { messagesOf } from "../../contract-model/trace/trace-event.js";
import type { TappedAnswer, TrafficTaps } from "../observability/traffic-taps.js";

/**
 * Let the configured traffic taps (a self-trace, OpenTelemetry spans) see each JSON-RPC message
 * an MCP handler receives and answers. Without taps the handler is returned as it is: no cost.
 * A body already parsed upstream (`parsedBody`) is used as it is. A JSON answer is read here once
 * (the bytes the caller would read anyway, handed on unchanged) and shown to the taps after it went
 * out; a stream (`text/event-stream`, which may stay open for long) is read from a clone.
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
      const later = (answer: TappedAnswer | undefined) =>
        setImmediate(() => {
          try {
            done(answer);
          } catch {
            // A tap never fails a call.
          }
        });
      const response = await handler.fetch(request, options);
      const { status } = response;
      const contentType = response.headers.get("content-type") ?? undefined;
      if (contentType?.startsWith("text/event-stream")) {
        void response
          .clone()
          .text()
          .then((text) => later({ status, contentType, text }))
          .catch(() => later(undefined));
        return response;
      }
      if (response.body === null) {
        later({ status, contentType, text: "" });
        return response;
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        later(undefined);
        throw error;
      }
      later({ status, contentType, text });
      return new Response(text, {
        status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
}

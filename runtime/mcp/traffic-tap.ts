import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { answerMessages, messagesOf } from "../../contract-model/trace/trace-event.js";
import type { TrafficTaps } from "../observability/traffic-taps.js";

/**
 * Let the configured traffic taps (a self-trace, OpenTelemetry spans) see each JSON-RPC message
 * an MCP handler receives and answers. Without taps the handler is returned as it is: no cost.
 * A body already parsed upstream (`parsedBody`) is used as it is; the answer is read from a clone.
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
      // Read from a clone, after the answer went back: an SSE stream may stay open for long.
      const type = response.headers.get("content-type") ?? undefined;
      void response
        .clone()
        .text()
        .then((text) => done(answerMessages(type, text)))
        .catch(() => done([]));
      return response;
    },
  };
}

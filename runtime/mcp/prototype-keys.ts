import { isJsonContentType, type McpHttpHandler } from "@modelcontextprotocol/server";
import { messageRefusal, refusalBody, toolCallsCarryPrototypeKey } from "./message-policy.js";

/**
 * The endpoint's guard of a POSTed JSON body, before the SDK sees it (C5, G9). The body is parsed
 * once here (or taken as the OAuth gate parsed it) and handed on as the SDK's documented
 * `parsedBody`, which also spares it a clone and a second parse. A body `messageRefusal` refuses
 * (nested too deeply, a batch the protocol revision does not allow, an own `__proto__` key outside
 * a tool call) is answered 400 with a JSON-RPC error and reaches no handler.
 *
 * Own `__proto__` keys in a tool call: `JSON.parse` keeps `{"__proto__": …}` as an own property,
 * but the SDK's request schemas copy `params` and `arguments` into fresh objects and skip that key,
 * so the contract's validator would never see it and the call would succeed without the key. Each
 * request whose tool call carries one (at any depth, also at the `params` level) is remembered, and
 * the dispatcher refuses it with INVALID_INPUT, like any other unknown property.
 */
const withPrototypeKey = new WeakSet<Request>();

/**
 * Wrap an MCP handler so a POSTed JSON body is parsed and checked here (see above). A body that is
 * empty or not JSON goes on as the text it was, so the SDK answers it exactly as before.
 */
export function guardPrototypeKeys(handler: McpHttpHandler): McpHttpHandler {
  return {
    ...handler,
    fetch: async (request, options) => {
      if (
        request.method.toUpperCase() !== "POST" ||
        !isJsonContentType(request.headers.get("content-type"))
      )
        return handler.fetch(request, options);
      let parsedBody = options?.parsedBody;
      if (parsedBody === undefined) {
        // toNodeHandler has read the body into memory already (bounded by its size limit).
        const text = await request.text();
        try {
          parsedBody = text.length === 0 ? undefined : JSON.parse(text);
        } catch {
          parsedBody = undefined;
        }
        if (parsedBody === undefined) {
          const { method, headers, signal } = request;
          return handler.fetch(new Request(request.url, { method, headers, signal, body: text }), {
            ...options,
          });
        }
      }
      const refusal = messageRefusal(parsedBody, request.headers.get("mcp-protocol-version"));
      if (refusal) return Response.json(refusalBody(refusal), { status: 400 });
      if (toolCallsCarryPrototypeKey(parsedBody)) withPrototypeKey.add(request);
      return handler.fetch(request, { ...options, parsedBody });
    },
  };
}

/** Whether the HTTP request being served carried an own `__proto__` key in a tool call. */
export function carriesPrototypeKey(request: Request | undefined): boolean {
  return request !== undefined && withPrototypeKey.has(request);
}

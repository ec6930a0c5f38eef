import { isJsonContentType, type McpHttpHandler } from "@modelcontextprotocol/server";

/**
 * Own `__proto__` keys in tool arguments (C5, G9). `JSON.parse` keeps `{"__proto__": …}` as an own
 * property, but the SDK's request schema copies `arguments` into a fresh object and skips that key,
 * so the contract's validator would never see it and the call would succeed without the key. The
 * MCP handler's `fetch` therefore looks at the parsed body (the mount's `parsedBody`, or the body it
 * parses itself), remembers each request whose tool arguments carry an own `__proto__` key (at any
 * depth), and hands the parsed body on (the SDK's documented `parsedBody`, which also spares it a
 * clone and a second parse). The dispatcher refuses
 * a remembered request with INVALID_INPUT, like any other unknown property.
 */
const withPrototypeKey = new WeakSet<Request>();

/** True when `value` or anything inside it has an own property named `__proto__`. */
export function hasOwnPrototypeKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(hasOwnPrototypeKey);
  if (Object.hasOwn(value, "__proto__")) return true;
  for (const key in value)
    if (hasOwnPrototypeKey((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** The arguments of every `tools/call` in a JSON-RPC message or batch. */
function toolArguments(message: unknown): unknown[] {
  if (Array.isArray(message)) return message.flatMap(toolArguments);
  if (typeof message !== "object" || message === null) return [];
  const { method, params } = message as { method?: unknown; params?: { arguments?: unknown } };
  return method === "tools/call" && typeof params === "object" && params !== null
    ? [params.arguments]
    : [];
}

/**
 * Wrap an MCP handler so a POSTed JSON body is parsed here (see above). A body that is empty or not
 * JSON goes on as the text it was, so the SDK answers it exactly as before.
 */
export function guardPrototypeKeys(handler: McpHttpHandler): McpHttpHandler {
  return {
    ...handler,
    fetch: async (request, options) => {
      // Parsed already (by the HTTP mount): only the scan is left to do.
      if (options?.parsedBody !== undefined) {
        if (toolArguments(options.parsedBody).some(hasOwnPrototypeKey))
          withPrototypeKey.add(request);
        return handler.fetch(request, options);
      }
      if (
        request.method.toUpperCase() !== "POST" ||
        !isJsonContentType(request.headers.get("content-type"))
      )
        return handler.fetch(request, options);
      // The request's body is in memory already (bounded by the mount's size limit).
      const text = await request.text();
      let parsedBody: unknown;
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
      if (toolArguments(parsedBody).some(hasOwnPrototypeKey)) withPrototypeKey.add(request);
      return handler.fetch(request, { ...options, parsedBody });
    },
  };
}

/** Whether the HTTP request being served carried an own `__proto__` key in its tool arguments. */
export function carriesPrototypeKey(request: Request | undefined): boolean {
  return request !== undefined && withPrototypeKey.has(request);
}

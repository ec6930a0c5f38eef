import { bodyParser } from "@koa/bodyparser";
import type { AuthInfo, McpHttpHandler } from "@modelcontextprotocol/server";
import type { Middleware } from "koa";
import { serveFetch } from "./fetch-bridge.js";

/** The SDK's own limit on a request body (4 MiB). */
const MAX_BODY = "4mb";

/**
 * Parse a JSON `POST /mcp` body, so the OAuth gate can see what a request without a token asks for;
 * the SDK then receives it pre-parsed and does not read the stream again. Unparsable JSON is answered with
 * JSON-RPC -32700 (the SDK's own answer); other content types pass unparsed, for the SDK to refuse.
 */
export function parseMcpBody(): Middleware {
  const parse = bodyParser({
    enableTypes: ["json"],
    jsonLimit: MAX_BODY,
    onError: (_error, ctx) => {
      ctx.status = 400;
      ctx.body = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
    },
  });
  return async (ctx, next) => {
    // Only JSON bodies: the parser would leave `{}` for other types, which must stay unparsed.
    if (ctx.method !== "POST" || !ctx.is("application/json")) return next();
    await parse(ctx, async () => {
      if (ctx.status === 400 && (ctx.body as { error?: unknown } | undefined)?.error) return;
      await next();
    });
  };
}

/**
 * Mount an SDK MCP handler on a Koa route: Koa steps aside (`respond = false`) and the Node
 * request/response go to the handler's fetch face through `serveFetch` (the body parsed once, by
 * `parseMcpBody` when it ran, else there), with the verified token the OAuth gate left on the
 * request.
 */
export function mcpRoute(handler: McpHttpHandler): Middleware {
  return async (ctx) => {
    ctx.respond = false;
    const parsedBody = (ctx.request as { body?: unknown }).body;
    const authInfo = (ctx.req as { auth?: AuthInfo }).auth;
    await serveFetch(handler, ctx.req, ctx.res, { parsedBody, authInfo });
  };
}

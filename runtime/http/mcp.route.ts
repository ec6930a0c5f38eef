import type { Middleware } from "koa";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";

/**
 * Mount an SDK MCP handler on a Koa route: Koa steps aside (`respond = false`) and the Node
 * request/response go to the SDK's adapter, which streams the body itself.
 */
export function mcpRoute(handler: McpHttpHandler): Middleware {
  const serve = toNodeHandler(handler);
  return async (ctx) => {
    ctx.respond = false;
    await serve(ctx.req, ctx.res);
  };
}

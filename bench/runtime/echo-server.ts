/**
 * The benchmark baseline: a bare SDK v2 echo tool mounted exactly like the coach endpoint (Koa,
 * host guard, router, toNodeHandler, createMcpHandler in JSON mode, one low-level Server per
 * request), without validation, store or logging. Prints its MCP URL on stdout; SIGTERM stops it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Router } from "@koa/router";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import Koa from "koa";
import { hostGuard, originPolicy } from "../../runtime/http/host-guard.js";
import { mcpRoute } from "../../runtime/http/mcp.route.js";

const echoTool = {
  name: "echo",
  description: "Echo the text back.",
  inputSchema: {
    type: "object" as const,
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
};

const mcp = createMcpHandler(
  () => {
    const server = new Server({ name: "echo", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", async () => ({ tools: [echoTool] }));
    server.setRequestHandler("tools/call", async (request) => ({
      content: [
        {
          type: "text",
          text: String((request.params.arguments as { text?: unknown })?.text ?? ""),
        },
      ],
    }));
    return server;
  },
  { responseMode: "json" },
);
let handle: ReturnType<Koa["callback"]> | undefined;
const server = http
  .createServer((req, res) => void handle?.(req, res))
  .listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    // The guard knows the bound port, as the coach server's does.
    const app = new Koa();
    const router = new Router();
    router.all("/mcp", mcpRoute(mcp));
    app.use(
      hostGuard(originPolicy({ host: "127.0.0.1", port, allowedHosts: [], allowedOrigins: [] })),
    );
    app.use(router.routes());
    handle = app.callback();
    process.stdout.write(`MCP endpoint http://127.0.0.1:${port}/mcp\n`);
  });
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void mcp.close();
});

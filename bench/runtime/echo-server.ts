/**
 * The benchmark baseline: a bare SDK v2 echo tool mounted exactly like the coach endpoint (Koa,
 * host guard, router, the coach's MCP edge `mcpEdge` — one body read and parse, the message policy,
 * the fetch bridge — createMcpHandler in JSON mode, one low-level Server per request), without
 * validation, store or logging. Prints its MCP URL on stdout; SIGTERM stops it.
 * Usage: node --import tsx bench/runtime/echo-server.ts [--auth DATA_DIR]
 * With `--auth`, `/mcp` sits behind the edge's OAuth gate (bearer parsing, JWT
 * verification against the development issuer whose key is in DATA_DIR, the memo of verified
 * tokens), configured as the benchmarked coach servers are (`BENCH_PUBLIC_URL`): the difference to
 * the bare echo is what authentication adds to a call.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Router } from "@koa/router";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import Koa from "koa";
import { checkAuthConfig, createAuthRuntime } from "../../runtime/auth/auth-runtime.js";
import { loadConfig } from "../../runtime/config/config.js";
import { hostGuard, originPolicy } from "../../runtime/http/host-guard.js";
import { mcpEdge } from "../../runtime/http/mcp-edge.js";
import { withoutJsonModeWarning } from "../../runtime/mcp/endpoint.js";
import { BENCH_MCP_URL, BENCH_PUBLIC_URL } from "./recall-round.js";

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

const mcp = withoutJsonModeWarning(() =>
  createMcpHandler(
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
  ),
);
const authDir = process.argv[process.argv.indexOf("--auth") + 1];
const auth = process.argv.includes("--auth")
  ? await (async () => {
      if (!authDir) throw new Error("usage: echo-server.ts [--auth DATA_DIR]");
      const config = await loadConfig(
        process.cwd(),
        { dataDir: authDir, port: 0, publicUrl: BENCH_PUBLIC_URL, developmentTunnel: true },
        {},
      );
      const settings = checkAuthConfig(config, {
        mcpUrl: BENCH_MCP_URL,
        oauthIssuer: BENCH_PUBLIC_URL,
      });
      return createAuthRuntime(config, settings);
    })()
  : undefined;
let handle: ReturnType<Koa["callback"]> | undefined;
const server = http
  .createServer((req, res) => void handle?.(req, res))
  .listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    // The guard knows the bound port, as the coach server's does.
    const app = new Koa();
    const router = new Router();
    router.all("/mcp", mcpEdge(mcp, auth ? { auth } : {}));
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

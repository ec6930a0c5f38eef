/**
 * The peer baseline of the runtime benchmark: an echo tool served exactly as the official MCP
 * TypeScript SDK v2 documentation shows a stateless Streamable HTTP server ("Serve over HTTP":
 * `createMcpHandler` with a per-request `McpServer` factory and a Zod input schema, mounted on plain
 * `node:http` with `toNodeHandler` behind `localhostHostValidation` / `localhostOriginValidation`,
 * on an explicit loopback bind). It is what a user of the SDK would build, so it is never tuned:
 * keep it as the documentation writes it. Prints its MCP URL on stdout; SIGTERM stops it.
 * Usage: node --import tsx bench/runtime/peer-echo-server.ts
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "echo", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Echo the text back",
      inputSchema: z.object({ text: z.string() }),
    },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
});

const nodeHandler = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const server = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void nodeHandler(req, res);
}).listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`MCP endpoint http://127.0.0.1:${port}/mcp\n`);
});
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void handler.close();
});

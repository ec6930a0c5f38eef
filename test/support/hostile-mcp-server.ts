import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the hostile server answers one `tools/list` request. */
export type ToolsListAnswer = (
  res: ServerResponse,
  id: unknown,
  cursor: string | undefined,
) => void;

/**
 * A hostile MCP server on loopback: a correct 2025-era `initialize` handshake (so the official
 * client gets as far as listing), then every `tools/list` answered by `answer` — a never-ending
 * body, endless pages, a drip, a huge list. Everything else is 405/202. Returns its `/mcp` URL.
 */
export async function startHostileMcpServer(
  answer: ToolsListAnswer,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        id?: unknown;
        method: string;
        params?: { cursor?: string };
      };
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (msg.method === "tools/list") {
        answer(res, msg.id, msg.params?.cursor);
        return;
      }
      const result =
        msg.method === "initialize"
          ? {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: { name: "hostile", version: "1.0.0" },
            }
          : {};
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
    });
  });
  // A client that gives up mid-body resets the socket; that is the point, not an error here.
  server.on("clientError", (_e, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The head of a JSON-RPC `tools/list` result, for answers written piece by piece. */
export const toolsListHead = (id: unknown): string =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[`;

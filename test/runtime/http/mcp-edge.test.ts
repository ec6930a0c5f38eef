import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import Koa from "koa";
import { mcpEdge } from "../../../runtime/http/mcp-edge.js";

/** A handler that records what reached it and answers one JSON result. */
function recordingHandler() {
  const seen: { parsedBody: unknown; bodyText: string }[] = [];
  const handler = {
    fetch: async (request: Request, options?: { parsedBody?: unknown }) => {
      seen.push({ parsedBody: options?.parsedBody, bodyText: await request.text() });
      return Response.json({ jsonrpc: "2.0", id: 1, result: {} });
    },
    close: async () => undefined,
  } as unknown as McpHttpHandler;
  return { handler, seen };
}

describe("the /mcp edge reads, parses and checks a body once (without a gate)", () => {
  let server: http.Server;
  let url: string;
  const { handler, seen } = recordingHandler();
  before(async () => {
    const app = new Koa();
    app.use(mcpEdge(handler));
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => seen.splice(0));

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  it("hands the parsed body on as parsedBody, with a bodyless request", async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    assert.equal(res.status, 200);
    assert.equal(Number(res.headers.get("content-length")), (await res.text()).length);
    assert.deepEqual(seen, [
      { parsedBody: { jsonrpc: "2.0", id: 1, method: "ping" }, bodyText: "" },
    ]);
  });

  it("answers a body the message policy refuses with 400 and reaches no handler", async () => {
    const batch = JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    const res = await post(batch, { "mcp-protocol-version": "2025-11-25" });
    assert.equal(res.status, 400);
    const answer = (await res.json()) as { id: null; error: { code: number } };
    assert.deepEqual([answer.id, answer.error.code], [null, -32600]);
    assert.deepEqual(seen, []);
  });

  it("forwards JSON that does not parse as the text it was, for the SDK to answer", async () => {
    const res = await post('{"jsonrpc":');
    assert.equal(res.status, 200);
    assert.deepEqual(seen, [{ parsedBody: undefined, bodyText: '{"jsonrpc":' }]);
  });

  it("refuses a body over the one limit with 413 and reaches no handler", async () => {
    const res = await post(`{"x":"${"a".repeat(4 * 1024 * 1024)}"}`);
    assert.equal(res.status, 413);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /Payload/);
    assert.deepEqual(seen, []);
  });
});

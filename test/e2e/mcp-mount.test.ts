import assert from "node:assert/strict";
import http from "node:http";
import { startFixture, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";

/** What a raw POST to /mcp got back: status, the headers that shape the body, the body. */
interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const modernHeaders = (name: string) => ({
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "mcp-method": "tools/call",
  "mcp-name": name,
  "mcp-protocol-version": "2026-07-28",
});

const modernCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: {
      name,
      arguments: args,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "mount-test", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });

/**
 * POST `body` (a string, or only the declared length of one that is never sent) and read the
 * answer. The connection is not reused, so a server that closes it disturbs no other request.
 */
function post(
  url: string,
  headers: Record<string, string>,
  body: string | { declaredLength: number },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent: false,
        headers: {
          ...headers,
          ...(typeof body === "string" ? {} : { "content-length": String(body.declaredLength) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (typeof body === "string") req.end(body);
    else req.flushHeaders();
  });
}

describe("the /mcp mount hands requests to the SDK and its answers back (issue #25 item 2)", () => {
  let fx: RuntimeFixture;
  let url: string;
  let token: string;
  let sid: string;
  before(async () => {
    fx = await startFixture();
    url = fx.server.mcpUrl;
    sid = await fx.newSession("mount-learner");
    token = await fx.token("mount-learner");
  });
  after(async () => fx?.close());

  it("answers a JSON result in one piece with its Content-Length, not chunked", async () => {
    const answer = await post(
      url,
      { ...modernHeaders("get_skillpilot_learning_context"), authorization: `Bearer ${token}` },
      modernCall("get_skillpilot_learning_context", { learningSessionId: sid }),
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.headers["transfer-encoding"], undefined);
    assert.equal(Number(answer.headers["content-length"]), Buffer.byteLength(answer.text));
    assert.match(String(answer.headers["content-type"]), /^application\/json/);
    const message = JSON.parse(answer.text) as {
      id: number;
      result: { isError?: boolean; structuredContent: { stateVersion: number } };
    };
    assert.equal(message.id, 7);
    assert.equal(message.result.isError, undefined);
    assert.equal(typeof message.result.structuredContent.stateVersion, "number");
  });

  it("answers a signed-in body that is not JSON with the SDK's parse error", async () => {
    const answer = await post(
      url,
      { ...modernHeaders("get_skillpilot_learning_context"), authorization: `Bearer ${token}` },
      '{"jsonrpc":"2.0","id":1,"method":',
    );
    assert.equal(answer.status, 400);
    const message = JSON.parse(answer.text) as { error: { code: number } };
    assert.equal(message.error.code, -32700);
  });

  it("refuses a body declared over 4 MiB with 413 before reading it, and closes the connection", async () => {
    const answer = await post(
      url,
      { ...modernHeaders("get_skillpilot_learning_context"), authorization: `Bearer ${token}` },
      { declaredLength: 4 * 1024 * 1024 + 1 },
    );
    assert.equal(answer.status, 413);
    assert.equal(answer.headers.connection, "close");
    const message = JSON.parse(answer.text) as { error: { code: number; message: string } };
    assert.equal(message.error.code, -32000);
    assert.match(message.error.message, /Payload Too Large/);
  });

  it("answers a 2025-era call as the event stream the SDK produces", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "get_skillpilot_learning_context", arguments: { learningSessionId: sid } },
    });
    const answer = await post(
      url,
      {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2025-11-25",
        authorization: `Bearer ${token}`,
      },
      body,
    );
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers["content-type"]), /^text\/event-stream/);
    const data = /^data: (.*)$/m.exec(answer.text)?.[1];
    assert.ok(data, "one SSE message event");
    const message = JSON.parse(data) as { id: number; result: { structuredContent: unknown } };
    assert.equal(message.id, 3);
    assert.ok(message.result.structuredContent);
  });
});

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { connectClient, errorCode } from "../runtime/support/mcp-clients.js";
import { loadConfig } from "../../runtime/config/config.js";
import { repoRoot, startFixture, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";

/** A raw request, so Host and Origin can be set to anything. */
function rawRequest(
  url: string,
  headers: Record<string, string>,
  method = "GET",
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("HTTP surface", () => {
  let fx: RuntimeFixture;
  before(async () => {
    fx = await startFixture();
  });
  after(async () => fx?.close());

  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  });

  it(
    "refuses a foreign Host with 403 on /mcp and /api/sessions (DNS-rebinding " + "guard)",
    async () => {
      const port = fx.server.port;
      const mcp = await rawRequest(
        `${fx.server.mcpUrl}`,
        {
          host: `evil.example:${port}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        "POST",
        initialize,
      );
      assert.equal(mcp.status, 403);
      const api = await rawRequest(
        `${fx.server.origin}/api/sessions`,
        { host: "evil.example", "content-type": "application/json" },
        "POST",
        JSON.stringify({ learner: "x" }),
      );
      assert.equal(api.status, 403);
    },
  );

  it("refuses a foreign Origin with 403 and accepts a loopback one", async () => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const foreign = await rawRequest(
      fx.server.mcpUrl,
      { ...headers, origin: "https://evil.example" },
      "POST",
      initialize,
    );
    assert.equal(foreign.status, 403);
    const local = await rawRequest(
      fx.server.mcpUrl,
      { ...headers, origin: `http://localhost:${fx.server.port}` },
      "POST",
      initialize,
    );
    assert.equal(local.status, 200);
  });

  it(
    "C14: on an ephemeral port (0), the start page in session errors names the " +
      "port actually bound; a configured one is kept",
    async () => {
      assert.equal(fx.services.config.port, fx.server.port, "the bound port, not 0");
      assert.equal(fx.services.config.launchUrl, `${fx.server.origin}/start`);
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const unknown = await client.callTool("get_skillpilot_learning_context", {
          learningSessionId: "sps_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        });
        assert.ok(
          unknown.content[0].text!.trimEnd().endsWith(`${fx.server.origin}/start.`),
          unknown.content[0].text,
        );
      } finally {
        await client.close();
      }
      const configured = await startFixture({ launchUrl: "https://skillpilot.com/start" });
      try {
        assert.equal(configured.services.config.launchUrl, "https://skillpilot.com/start");
      } finally {
        await configured.close();
      }
    },
  );

  it("answers /healthz", async () => {
    const res = await fetch(`${fx.server.origin}/healthz`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { status: string }).status, "ok");
  });

  it("exposes /metrics with only the bounded labels (L13)", async () => {
    const sid = await fx.newSession("metrics-learner");
    const client = await connectClient(fx, "2026-07-28 (SDK v2)");
    try {
      await client.callTool("get_skillpilot_learning_context", { learningSessionId: sid });
      const stale = await client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: 99,
        clientRequestId: randomUUID(),
        decision: "achieved",
      });
      assert.equal(errorCode(stale), "STATE_CONFLICT");
    } finally {
      await client.close();
    }
    const text = await (await fetch(`${fx.server.origin}/metrics`)).text();
    assert.match(
      text,
      /skillpilot_tool_calls_total\{[^}]*toolName="get_skillpilot_learning_context",status="ok",resultCode="OK"\} 1/,
    );
    assert.match(
      text,
      /skillpilot_tool_calls_total\{[^}]*toolName="complete_skillpilot_goal",status="error",resultCode="STATE_CONFLICT"\} 1/,
    );
    const labelNames = new Set(
      [...text.matchAll(/\{([^}]*)\}/g)].flatMap((m) =>
        [...m[1].matchAll(/(\w+)="/g)].map((l) => l[1]),
      ),
    );
    labelNames.delete("le");
    assert.deepEqual([...labelNames].sort(), [
      "contractMajor",
      "pluginLine",
      "resultCode",
      "status",
      "toolName",
    ]);
    assert.ok(!text.includes(sid));
  });
});

describe("the Host/Origin guard compares exact origins (issue #15 item 9; C15)", () => {
  let fx: RuntimeFixture;
  let port: number;
  before(async () => {
    fx = await startFixture({
      publicUrl: "https://coach.example.com/base",
      developmentTunnel: true,
      allowedOrigins: ["HTTPS://Chat.Example.com:443"],
      allowedHosts: ["proxy.example"],
    });
    port = fx.server.port;
  });
  after(async () => fx?.close());

  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  /** POST /mcp and POST /api/sessions with extra headers; both statuses. */
  const statuses = async (extra: Record<string, string>) => {
    const mcp = await rawRequest(
      fx.server.mcpUrl,
      { ...headers, "mcp-protocol-version": "2025-11-25", ...extra },
      "POST",
      listTools,
    );
    const api = await rawRequest(
      `${fx.server.origin}/api/sessions`,
      { "content-type": "application/json", ...extra },
      "POST",
      JSON.stringify({ learner: `origin-${randomUUID()}` }),
    );
    return [mcp.status, api.status];
  };

  it("accepts the bound loopback origins, the publicUrl origin and a configured origin", async () => {
    for (const origin of [
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
      "https://coach.example.com",
      "https://chat.example.com",
    ])
      assert.deepEqual(await statuses({ origin }), [200, 201], origin);
    assert.deepEqual(await statuses({}), [200, 201], "no Origin: a non-browser client");
  });

  it("refuses another port, another scheme, a trailing slash, upper case, null and look-alikes with 403", async () => {
    for (const origin of [
      "http://localhost:9999",
      `http://localhost:${port + 1}`,
      "http://localhost",
      `https://localhost:${port}`,
      `http://localhost:${port}/`,
      `HTTP://LOCALHOST:${port}`,
      `http://LOCALHOST:${port}`,
      "null",
      "http://coach.example.com",
      "https://coach.example.com:8443",
      "https://chat.example.com:8443",
      "http://chat.example.com",
      "https://chat.example.com.evil.example",
      "https://proxy.example",
      `http://localhost:${port}@evil.example`,
    ])
      assert.deepEqual(await statuses({ origin }), [403, 403], origin);
  });

  it("checks Host by name and bound port; configured allowedHosts on any port; publicUrl host exactly", async () => {
    for (const host of [
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      "coach.example.com",
      "proxy.example",
      "proxy.example:8443",
    ])
      assert.deepEqual(await statuses({ host }), [200, 201], host);
    for (const host of [
      `localhost:${port + 1}`,
      "localhost",
      `evil.example:${port}`,
      "coach.example.com:8443",
      `127.0.0.2:${port}`,
    ])
      assert.deepEqual(await statuses({ host }), [403, 403], host);
  });

  it("refuses a configured allowedOrigins entry that is not an exact origin, naming it", async () => {
    for (const entry of [
      "https://chat.example.com/",
      "https://chat.example.com/app",
      "ftp://x.example",
      "chat.example.com",
    ])
      await assert.rejects(
        loadConfig(repoRoot, { allowedOrigins: [entry] }, {}),
        (error: Error) => error.message.includes(JSON.stringify(entry)),
        entry,
      );
    const config = await loadConfig(
      repoRoot,
      { allowedOrigins: ["HTTPS://Chat.Example.com:443"] },
      {},
    );
    assert.deepEqual(config.allowedOrigins, ["https://chat.example.com"]);
  });
});

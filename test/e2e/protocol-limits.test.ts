import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { eras, errorCode, rawToolCall } from "../runtime/support/mcp-clients.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import type { Wire } from "../support/wire.js";

/** POST a raw JSON text to /mcp with the given protocol revision header (none: null). */
async function post(
  fx: RuntimeFixture,
  body: string,
  revision: string | null,
  token?: string,
): Promise<{ status: number; json: Wire }> {
  const res = await fetch(fx.server.mcpUrl, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      ...(revision !== null && { "mcp-protocol-version": revision }),
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body,
  });
  const text = await res.text();
  if (text.startsWith("{") || text.startsWith("["))
    return { status: res.status, json: JSON.parse(text) };
  // A 2025 answer is a stream of SSE events, one per answered message.
  const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]));
  return { status: res.status, json: events.length === 1 ? events[0] : events };
}

const ping = (id: unknown) => ({ jsonrpc: "2.0", id, method: "ping" });
const nested = (kind: "array" | "object", depth: number) =>
  kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("request limits: no input answers a 5xx (issue #21 items 1 and 9; C5, G9)", function () {
  this.timeout(120_000);
  let fx: RuntimeFixture;
  let sid: string;
  let token: string;
  before(async () => {
    fx = await startFixture();
    sid = await fx.newSession("limits");
    token = await fx.token("limits");
  });
  after(async () => fx?.close());

  describe("deep nesting is refused at any depth, with and without a token", () => {
    for (const era of eras)
      for (const kind of ["array", "object"] as const)
        it(`${era}: ${kind}s nested 300, 5 000 and 100 000 levels deep get 400 Invalid Request`, async () => {
          for (const depth of [300, 5_000, 100_000])
            for (const credential of [token, undefined]) {
              const { status, error } = await rawToolCall(
                fx.server.mcpUrl,
                era,
                "get_skillpilot_learning_context",
                `{"learningSessionId":${JSON.stringify(sid)},"x":${nested(kind, depth)}}`,
                credential,
              );
              assert.equal(status, 400, `${depth} levels, token: ${!!credential}`);
              assert.equal(error?.code, -32600);
              assert.match(error?.message ?? "", /nested deeper than 256 levels/);
            }
        });

    it("an argument nested within the limit is an ordinary INVALID_INPUT tool result", async () => {
      for (const era of eras) {
        const { status, result } = await rawToolCall(
          fx.server.mcpUrl,
          era,
          "get_skillpilot_learning_context",
          `{"learningSessionId":${JSON.stringify(sid)},"x":${nested("array", 250)}}`,
          token,
        );
        assert.equal(status, 200);
        assert.equal(errorCode(result!), "INVALID_INPUT");
      }
    });

    it("a deep non-tool request and a deep batch get the same 400", async () => {
      const deepPing = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":${nested("object", 10_000)}}}}`;
      for (const credential of [token, undefined]) {
        const single = await post(fx, deepPing, "2025-11-25", credential);
        assert.equal(single.status, 400);
        assert.equal(single.json.error.code, -32600);
        const batch = await post(fx, `[${deepPing}]`, "2025-03-26", credential);
        assert.equal(batch.status, 400);
        assert.equal(batch.json.error.code, -32600);
      }
    });
  });

  describe("an own __proto__ key at the params level is refused, not dropped", () => {
    it("in a tool call: INVALID_INPUT and nothing written", async () => {
      for (const era of eras) {
        const modern = era === eras[0];
        const before = await fx.db("learner_state").select();
        const meta = modern
          ? ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' +
            '"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},' +
            '"io.modelcontextprotocol/clientCapabilities":{}}'
          : "";
        const body =
          '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"complete_skillpilot_goal",' +
          `"arguments":{"learningSessionId":${JSON.stringify(sid)},"expectedStateVersion":1,` +
          `"clientRequestId":"${randomUUID()}","decision":"needsMorePractice"},` +
          `"__proto__":{"arguments":{}}${meta}}}`;
        const res = await fetch(fx.server.mcpUrl, {
          method: "POST",
          headers: {
            accept: "application/json, text/event-stream",
            "content-type": "application/json",
            authorization: `Bearer ${token}`,
            ...(modern
              ? {
                  "mcp-method": "tools/call",
                  "mcp-name": "complete_skillpilot_goal",
                  "mcp-protocol-version": "2026-07-28",
                }
              : { "mcp-protocol-version": "2025-11-25" }),
          },
          body,
        });
        const text = await res.text();
        const answer = JSON.parse(
          text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? ""),
        );
        assert.equal(res.status, 200, era);
        assert.equal(errorCode(answer.result), "INVALID_INPUT", era);
        assert.deepEqual(await fx.db("learner_state").select(), before);
      }
    });

    it("in any other request: 400, Invalid params (Parse error without a token)", async () => {
      // Without a token the OAuth gate parses the body, with a parser that refuses such keys.
      for (const [credential, code] of [
        [token, -32602],
        [undefined, -32700],
      ] as const) {
        const { status, json } = await post(
          fx,
          '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"__proto__":{"cursor":"x"}}}',
          "2025-11-25",
          credential,
        );
        assert.equal(status, 400);
        assert.equal(json.error.code, code);
      }
    });
  });

  describe("JSON-RPC batches only where the protocol revision has them", () => {
    const batch = JSON.stringify([ping(1), ping(2)]);
    for (const revision of ["2025-06-18", "2025-11-25", "2026-07-28"])
      it(`refuses a batch under ${revision}: 400 Invalid Request, id null`, async () => {
        for (const credential of [token, undefined]) {
          const { status, json } = await post(fx, batch, revision, credential);
          assert.equal(status, 400);
          assert.deepEqual({ id: json.id, code: json.error.code }, { id: null, code: -32600 });
          assert.match(json.error.message, new RegExp(`${revision} has no JSON-RPC batches`));
        }
      });

    it("serves a batch under 2025-03-26 (also when no revision header says so)", async () => {
      for (const revision of ["2025-03-26", null]) {
        const { status, json } = await post(fx, batch, revision, token);
        assert.equal(status, 200, String(revision));
        assert.deepEqual((json as { id: number }[]).map((m) => m.id).sort(), [1, 2]);
      }
    });

    it("refuses a batch whose requests share an id, an empty batch and nested arrays", async () => {
      for (const body of [
        JSON.stringify([ping(1), ping(1)]),
        JSON.stringify([ping("a"), ping(2), ping("a")]),
        "[]",
        JSON.stringify([[ping(1)], [ping(2)]]),
      ])
        for (const credential of [token, undefined]) {
          const { status, json } = await post(fx, body, "2025-03-26", credential);
          assert.equal(status, 400, body);
          assert.equal(json.error.code, -32600, body);
        }
      // Requests with different ids, and notifications without one, are served.
      const served = await post(
        fx,
        JSON.stringify([
          ping(1),
          ping("1"),
          { jsonrpc: "2.0", method: "notifications/initialized" },
        ]),
        "2025-03-26",
        token,
      );
      assert.equal(served.status, 200);
    });
  });

  describe("params a method does not take are -32602 Invalid params with the reason, never -32603 (found by the ingress fuzzer)", () => {
    const malformed: [method: string, params: unknown, reason: RegExp][] = [
      ["initialize", {}, /params\.protocolVersion must be a string/],
      [
        "initialize",
        { protocolVersion: "2025-11-25", capabilities: [], clientInfo: {} },
        /capabilities/,
      ],
      [
        "initialize",
        { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: 1 } },
        /clientInfo/,
      ],
      ["tools/list", { cursor: 7 }, /params\.cursor must be a string/],
      ["tools/list", "all", /params must be an object/],
      ["resources/list", { cursor: {} }, /params\.cursor/],
      ["resources/templates/list", [], /params must be an object/],
      ["resources/read", {}, /params\.uri must be a string/],
      ["resources/read", { uri: 42 }, /params\.uri must be a string/],
    ];
    for (const revision of ["2025-11-25", "2026-07-28"])
      it(`${revision}: each answered 400 with -32602 and what is wrong, with and without a token`, async () => {
        for (const [method, params, reason] of malformed)
          for (const credential of [token, undefined]) {
            // 2026-07-28 has no initialize: see the test below.
            if (method === "initialize" && revision === "2026-07-28") continue;
            const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method, params });
            const { status, json } = await post(fx, body, revision, credential);
            const what = `${method} ${JSON.stringify(params)}`;
            assert.equal(status, 400, what);
            assert.equal(json.error?.code, -32602, what);
            assert.match(String(json.error?.message), reason, what);
          }
      });

    it("2026-07-28: initialize is left to the SDK's answer for the legacy handshake, not judged by its params", async () => {
      for (const params of [{}, { protocolVersion: 1 }]) {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "initialize", params });
        const { status, json } = await post(fx, body, "2026-07-28", token);
        assert.ok(status < 500, JSON.stringify(json));
        assert.ok(json.error, JSON.stringify(json));
        assert.notEqual(json.error.code, -32602, JSON.stringify(json));
      }
    });

    it("well-formed params still pass: a list without params, a cursor string, a read of a page", async () => {
      for (const [method, params] of [
        ["tools/list", undefined],
        ["tools/list", {}],
        ["resources/list", {}],
      ] as const) {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, ...(params && { params }) });
        const { status, json } = await post(fx, body, "2025-11-25", token);
        assert.equal(status, 200, `${method}: ${JSON.stringify(json)}`);
        assert.equal(json.error, undefined, method);
      }
    });
  });
});

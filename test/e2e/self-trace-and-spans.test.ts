import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkTrace, contractFacts } from "../../checks/trace/check-trace.js";
import type { TurnFacts } from "../../contract-model/trace/turn-facts.js";
import { logFingerprint } from "../../runtime/observability/session-fingerprint.js";
import { connectClient, errorCode } from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture } from "../runtime/support/runtime-fixture.js";
import { otlpReceiver } from "../support/otlp-receiver.js";
import type { WireObject } from "../support/wire.js";

const attrs = (span: WireObject) =>
  Object.fromEntries(
    (span.attributes as WireObject[]).map((a) => [a.key, Object.values(a.value)[0]]),
  ) as Record<string, unknown>;

describe("the server's own trace and OpenTelemetry spans, both off by default (G10, L13, C15)", () => {
  it("is off by default: no taps, the endpoint as before", async () => {
    const fx = await startFixture();
    try {
      assert.equal(fx.services.traffic, undefined);
      assert.ok(fx.services.turnMonitor);
    } finally {
      await fx.close();
    }
  });

  it("writes a redacted trace of its own traffic and exports MCP spans with the host's trace context", async () => {
    const receiver = await otlpReceiver();
    const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-self-trace-"));
    const traceFile = path.join(dir, "self-trace.jsonl");
    const fx = await startFixture({
      traceFile,
      openTelemetry: { tracesEndpoint: receiver.url },
    });
    let sid = "";
    try {
      assert.equal(fx.services.config.traceFile, traceFile);
      sid = await fx.newSession("self-trace");
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      const ctx = (
        await client.callTool("get_skillpilot_learning_context", { learningSessionId: sid })
      ).structuredContent as WireObject;
      const stale = await client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion + 5,
        clientRequestId: randomUUID(),
        option: ctx.options[0].payload,
      });
      assert.equal(errorCode(stale), "STATE_CONFLICT");
      await client.close();
      // A host that propagates its trace context in params._meta (W3C traceparent).
      const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
      const res = await fetch(fx.mcpUrl, {
        method: "POST",
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          authorization: `Bearer ${await fx.token("self-trace")}`,
          "mcp-method": "tools/call",
          "mcp-name": "get_skillpilot_learning_context",
          "mcp-protocol-version": "2026-07-28",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: "req-7",
          method: "tools/call",
          params: {
            name: "get_skillpilot_learning_context",
            arguments: { learningSessionId: sid },
            _meta: {
              traceparent,
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      await res.text();
    } finally {
      await fx.close();
      await receiver.close();
    }
    // The trace: redacted, judged by trace check with turns inferred (a server sees no learner).
    const text = await readFile(traceFile, "utf8");
    await rm(dir, { recursive: true, force: true });
    assert.ok(!text.includes(sid));
    assert.ok(text.includes(`redacted:session:${logFingerprint(fx.services.logHmacKey, sid)}`));
    const facts = contractFacts(
      JSON.parse(await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8")),
    ) as TurnFacts;
    const judged = checkTrace(text, "self-trace.jsonl", facts, "contract", { turnGapSeconds: 30 });
    assert.equal(judged.unusable, false, JSON.stringify(judged.diagnostics));
    assert.equal(judged.inferred, true);
    // The spans: per the MCP semantic conventions, no learner data.
    // Binary Protobuf by default, the encoding every OTLP receiver reads.
    assert.ok(receiver.contentTypes.length > 0);
    for (const type of receiver.contentTypes) assert.match(type, /^application\/x-protobuf/);
    const exported = Buffer.concat(receiver.raw).toString("latin1");
    assert.ok(!exported.includes(sid) && !exported.includes("stateVersion"));
    const spans = receiver.spans();
    const calls = spans.filter((s) => String(s.name).startsWith("tools/call "));
    assert.deepEqual(
      calls.map((s) => s.name),
      [
        "tools/call get_skillpilot_learning_context",
        "tools/call choose_skillpilot_option",
        "tools/call get_skillpilot_learning_context",
      ],
    );
    const [read, conflict, propagated] = calls;
    assert.equal(read.kind, 2, "SERVER");
    assert.deepEqual(
      { ...attrs(read), "jsonrpc.request.id": undefined },
      {
        "mcp.method.name": "tools/call",
        "network.transport": "tcp",
        "network.protocol.name": "http",
        "jsonrpc.request.id": undefined,
        "gen_ai.tool.name": "get_skillpilot_learning_context",
        "gen_ai.operation.name": "execute_tool",
        "mcp.protocol.version": "2026-07-28",
        "coach.result_code": "OK",
      },
    );
    assert.equal(attrs(conflict)["error.type"], "tool_error");
    assert.equal(attrs(conflict)["coach.result_code"], "STATE_CONFLICT");
    assert.equal((conflict.status as WireObject).code, 2, "ERROR");
    assert.equal(attrs(propagated)["jsonrpc.request.id"], "req-7");
    assert.equal(propagated.traceId, "4bf92f3577b34da6a3ce929d0e0e4736");
    assert.equal(propagated.parentSpanId, "00f067aa0ba902b7");
  });

  it("in the 2025 era, whose answers are event streams, records and spans them the same way", async () => {
    const receiver = await otlpReceiver();
    const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-self-trace-"));
    const traceFile = path.join(dir, "self-trace.jsonl");
    // A receiver that reads only JSON is served with protocol http/json.
    const fx = await startFixture({
      traceFile,
      openTelemetry: { tracesEndpoint: receiver.url, protocol: "http/json" },
    });
    let sid = "";
    try {
      sid = await fx.newSession("self-trace-2025");
      const client = await connectClient(fx, "2025 stateless (SDK v1)");
      const read = await client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      });
      assert.ok(!read.isError);
      const stale = await client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: 99,
        clientRequestId: randomUUID(),
        option: "x",
      });
      assert.ok(stale.isError);
      await client.close();
    } finally {
      await fx.close();
      await receiver.close();
    }
    const text = await readFile(traceFile, "utf8");
    await rm(dir, { recursive: true, force: true });
    const served = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as WireObject)
      .filter((e) => e.from === "server");
    assert.ok(
      served.some((e) => JSON.stringify(e).includes('"stateVersion"')),
      "the context answer's result is in the trace",
    );
    for (const type of receiver.contentTypes) assert.match(type, /^application\/json/);
    assert.ok(!Buffer.concat(receiver.raw).toString().includes(sid));
    const calls = receiver.spans().filter((s) => String(s.name).startsWith("tools/call "));
    assert.deepEqual(
      calls.map((s) => [s.name, attrs(s)["coach.result_code"]]),
      [
        ["tools/call get_skillpilot_learning_context", "OK"],
        ["tools/call choose_skillpilot_option", attrs(calls[1])["coach.result_code"]],
      ],
    );
    assert.notEqual(attrs(calls[1])["coach.result_code"], "OK");
    assert.equal(attrs(calls[1])["error.type"], "tool_error");
  });
});

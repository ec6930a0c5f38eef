import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { McpTracing, SPAN_BATCH_MS } from "../../../runtime/observability/tracing.js";
import { otlpReceiver } from "../../support/otlp-receiver.js";
import type { WireObject } from "../../support/wire.js";

const call = (id: number, name = "get_skillpilot_learning_context", meta = {}) => ({
  jsonrpc: "2.0" as const,
  id,
  method: "tools/call",
  params: { name, arguments: { learningSessionId: "sps_secret" }, _meta: meta },
});

const attrs = (span: WireObject) =>
  Object.fromEntries(
    (span.attributes as WireObject[]).map((a) => [a.key, Object.values(a.value)[0]]),
  ) as Record<string, unknown>;

const nanos = (value: unknown) => BigInt(String(value));

/** Tracing to a test receiver. */
const tracingTo = (url: string, protocol?: "http/json") =>
  McpTracing.create({
    tracesEndpoint: url,
    serviceName: "tracing-test",
    serviceVersion: "1",
    ...(protocol && { protocol }),
  });

describe("OpenTelemetry spans are noted on the call and made in batches", () => {
  it("a span carries the times measured on its call, not the time its batch was made", async () => {
    const receiver = await otlpReceiver();
    const tracing = tracingTo(receiver.url);
    try {
      const before = BigInt(Date.now()) * 1_000_000n;
      const traced = tracing.start(call(1), "2026-07-28")!;
      await sleep(40);
      tracing.endOk(traced);
      const ended = BigInt(Date.now()) * 1_000_000n;
      // The batch is made later: after SPAN_BATCH_MS at the latest (here, on close).
      await sleep(20);
      await tracing.close();
      const [span] = receiver.spans();
      const start = nanos(span.startTimeUnixNano);
      const end = nanos(span.endTimeUnixNano);
      const slack = 5_000_000n; // the clocks' rounding: 5 ms
      assert.ok(start >= before - slack && start <= before + slack, "started on the call");
      assert.ok(end - start >= 35_000_000n, "lasted as long as the call");
      assert.ok(end <= ended + slack, "ended when the answer was known, not when flushed");
      assert.equal(span.name, "tools/call get_skillpilot_learning_context");
      assert.equal(attrs(span)["coach.result_code"], "OK");
      assert.ok(!Buffer.concat(receiver.raw).toString("latin1").includes("sps_secret"));
    } finally {
      await receiver.close();
    }
  });

  it("makes a batch's spans within SPAN_BATCH_MS without a close, with parents, failures and statuses", async () => {
    const receiver = await otlpReceiver();
    process.env.OTEL_BSP_SCHEDULE_DELAY = "10";
    const tracing = tracingTo(receiver.url);
    delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    try {
      const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
      const ok = tracing.start(
        call(1, "get_skillpilot_learning_context", { traceparent }),
        undefined,
      )!;
      const toolError = tracing.start(call(2, "choose_skillpilot_option"), undefined)!;
      const rpcError = tracing.start(call(3, "no_such_tool"), undefined)!;
      tracing.end(ok, { jsonrpc: "2.0", id: 1, result: { content: [] } });
      tracing.end(toolError, {
        jsonrpc: "2.0",
        id: 2,
        result: { isError: true, content: [{ type: "text", text: "STATE_CONFLICT: reload" }] },
      });
      tracing.end(rpcError, { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "x" } });
      const deadline = Date.now() + SPAN_BATCH_MS + 2000;
      while (receiver.spans().length < 3 && Date.now() < deadline) await sleep(10);
      const spans = receiver.spans();
      assert.equal(spans.length, 3, "exported without a close");
      const byId = new Map(spans.map((s) => [attrs(s)["jsonrpc.request.id"], s]));
      const parent = byId.get("1")!;
      assert.equal(parent.traceId, "4bf92f3577b34da6a3ce929d0e0e4736");
      assert.equal(parent.parentSpanId, "00f067aa0ba902b7");
      const conflict = byId.get("2")!;
      assert.equal(attrs(conflict)["coach.result_code"], "STATE_CONFLICT");
      assert.equal(attrs(conflict)["error.type"], "tool_error");
      assert.deepEqual(conflict.status, { message: "STATE_CONFLICT", code: 2 });
      const invalid = byId.get("3")!;
      assert.equal(attrs(invalid)["error.type"], "-32602");
      assert.equal(attrs(invalid)["rpc.response.status_code"], "-32602");
      assert.equal((invalid.status as WireObject).code, 2);
    } finally {
      await tracing.close();
      await receiver.close();
    }
  });

  it("many spans in one stretch are all exported, and a notification's span ends without an answer", async () => {
    const receiver = await otlpReceiver();
    const tracing = tracingTo(receiver.url, "http/json");
    try {
      const note = tracing.start(
        { jsonrpc: "2.0", method: "notifications/initialized" },
        "2026-07-28",
      )!;
      tracing.end(note, undefined);
      for (let i = 0; i < 300; i++) tracing.endOk(tracing.start(call(i), undefined)!);
      await tracing.close();
      const spans = receiver.spans();
      assert.equal(spans.length, 301);
      for (const type of receiver.contentTypes) assert.match(type, /^application\/json/);
      const initialized = spans.find((s) => s.name === "notifications/initialized")!;
      assert.equal(attrs(initialized)["coach.result_code"], undefined);
      assert.equal(attrs(initialized)["mcp.protocol.version"], "2026-07-28");
    } finally {
      await receiver.close();
    }
  });
});

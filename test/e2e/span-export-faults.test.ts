import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ConfigOverrides } from "../../runtime/config/config.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";

/** A loopback OTLP/HTTP collector that answers each export only `delayMs` after it came in. */
async function slowCollector(delayMs: number) {
  const state = { received: 0, answered: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    state.received++;
    req.resume();
    const timer = setTimeout(() => {
      timers.delete(timer);
      state.answered++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    state,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The traces URL of a loopback port nothing listens on any more (bound, then closed). */
async function deadCollectorUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1/traces`;
}

/**
 * A fixture whose span processor runs with a queue of 2 spans, exporting each span on its own as
 * soon as it ends (the SDK's own OTEL_BSP_* variables, read when the processor is built).
 */
async function tracedFixture(
  tracesEndpoint: string,
  env: Record<string, string> = {},
): Promise<RuntimeFixture> {
  const vars: Record<string, string> = {
    OTEL_BSP_MAX_QUEUE_SIZE: "2",
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "1",
    OTEL_BSP_SCHEDULE_DELAY: "10",
    ...env,
  };
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    const overrides: ConfigOverrides = { openTelemetry: { tracesEndpoint } };
    return await startFixture(overrides);
  } finally {
    for (const [k, v] of Object.entries(before))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

/** One get-context call over HTTP, as a host sends it: one request, one span. */
async function readContext(fx: RuntimeFixture, sid: string, token: string) {
  const res = await fetch(fx.mcpUrl, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "mcp-method": "tools/call",
      "mcp-name": "get_skillpilot_learning_context",
      "mcp-protocol-version": "2026-07-28",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "get_skillpilot_learning_context",
        arguments: { learningSessionId: sid },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const body = (await res.json()) as { result?: { isError?: boolean } };
  assert.equal(res.status, 200);
  assert.ok(body.result && body.result.isError !== true, JSON.stringify(body));
}

/** The lost-span counter on /metrics, by reason. */
async function dropped(fx: RuntimeFixture): Promise<{ queue_full: number; export_failed: number }> {
  const text = await (await fetch(`${fx.server.origin}/metrics`)).text();
  const value = (reason: string) =>
    Number(
      new RegExp(`^skillpilot_trace_spans_dropped_total\\{reason="${reason}"\\} (\\d+)$`, "m").exec(
        text,
      )?.[1] ?? 0,
    );
  return { queue_full: value("queue_full"), export_failed: value("export_failed") };
}

async function until(what: string, condition: () => Promise<boolean> | boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("span export never touches a call: a slow or dead collector (L13, G10)", function () {
  this.timeout(60_000);

  it("a collector that answers after seconds: every call is answered before it answers; the spans that find the queue full are dropped and counted", async () => {
    const collector = await slowCollector(3_000);
    const fx = await tracedFixture(collector.url);
    try {
      const sid = await fx.newSession("slow-collector");
      const token = await fx.token("slow-collector");
      // The first call's span goes out at once, and the collector holds that export.
      await readContext(fx, sid, token);
      await until("the first export reached the collector", () => collector.state.received === 1);
      // Six more calls while the export is held: two spans fill the queue, four find it full.
      for (let i = 0; i < 6; i++) await readContext(fx, sid, token);
      assert.equal(collector.state.answered, 0, "every call was answered before the collector");
      await until("four spans counted as dropped", async () => (await dropped(fx)).queue_full >= 4);
      assert.deepEqual(await dropped(fx), { queue_full: 4, export_failed: 0 });
      assert.equal(collector.state.answered, 0);
    } finally {
      await fx.close();
      await collector.close();
    }
  });

  it("a collector whose port is closed: calls are answered while the export retries, its failure is counted, and calls go on", async () => {
    // A short exporter deadline: the failing export gives up after its retries, within seconds.
    const fx = await tracedFixture(await deadCollectorUrl(), {
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "4000",
    });
    try {
      const sid = await fx.newSession("dead-collector");
      const token = await fx.token("dead-collector");
      await readContext(fx, sid, token);
      // The first span's export starts once the answer is out (refused, retried after ~1 s).
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (let i = 0; i < 6; i++) await readContext(fx, sid, token);
      await until("four spans counted as dropped", async () => (await dropped(fx)).queue_full >= 4);
      assert.deepEqual(
        await dropped(fx),
        { queue_full: 4, export_failed: 0 },
        "every call was answered while the first export was still retrying",
      );
      await until("the failed export counted", async () => (await dropped(fx)).export_failed >= 1);
      await readContext(fx, sid, token);
    } finally {
      await fx.close();
    }
  });
});

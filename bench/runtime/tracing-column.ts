import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { benchTokens } from "./bench-tokens.js";
import { activeLearners, contextCalls } from "./coach-learners.js";
import type { Scenario } from "./interleave.js";
import type { Result } from "./load-driver.js";
import { SPAN_BATCH_MS } from "../../runtime/observability/tracing.js";
import { untilQuiet } from "./machine-quiet.js";
import type { Ratio } from "./ratio-summary.js";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { BENCH_MCP_URL, BENCH_PUBLIC_ENV } from "./recall-round.js";
import { startProcess, stopProcess } from "./server-process.js";

/**
 * The tracing column of `bench:runtime` (issue #22): the context read on the same server code
 * with OpenTelemetry on (spans exported over OTLP/HTTP to a loopback sink that discards them):
 * tracing on may cost at most 0.15 of an echo call. Tracing off is a twin started exactly alike
 * without the OTLP endpoint (context@untraced): the main coach server serves many scenarios and
 * costs less per call than a server started for one, so comparing with it would charge tracing
 * for the difference. The traced twin exports a batch that is not full after OTLP_SCHEDULE_DELAY_MS
 * (the SDK's default is 5 s): a slice waits that long after its calls before its CPU is read, so
 * its last export is charged to it instead of landing in another scenario's slice.
 */
const OTLP_SCHEDULE_DELAY_MS = 250;

export async function tracingColumn(root: string, dir: string, clients: number) {
  let exported = 0;
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      exported++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", () => resolve()));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/v1/traces`;
  const variants = [
    {
      name: "context+otel",
      root,
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sinkUrl,
        OTEL_BSP_SCHEDULE_DELAY: String(OTLP_SCHEDULE_DELAY_MS),
      },
    },
    { name: "context@untraced", root, env: {} },
  ];
  const servers = await Promise.all(
    variants.map(async (v, i) => {
      const data = path.join(dir, `tracing-${i}`);
      const server = await startProcess(
        v.root,
        [path.join(v.root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", data],
        {
          SKILLPILOT_LOG: path.join(data, "calls.log"),
          ...BENCH_PUBLIC_ENV,
          ...v.env,
        },
      );
      const tokens = await benchTokens(data, BENCH_MCP_URL);
      const caller = new RawMcpCaller(server.url, clients, tokens.tokenFor);
      const learners = await activeLearners(
        new URL(server.url).origin,
        caller,
        Array.from({ length: clients }, (_, n) => `trace-bench-${n}`),
        tokens.bind,
      );
      return { ...v, server, caller, learners };
    }),
  );
  const afterExport = async () => {
    await new Promise((resolve) =>
      setTimeout(resolve, OTLP_SCHEDULE_DELAY_MS + SPAN_BATCH_MS + 50),
    );
    return untilQuiet();
  };
  const scenarios: Scenario[] = servers.map((s) => ({
    name: s.name,
    calls: contextCalls([s.caller], s.learners),
    pids: [s.server.child.pid],
    group: "tracing",
    ...(s.name === "context+otel" && { settle: afterExport }),
  }));
  return {
    scenarios,
    /** Its ratios in one run, against the same run's context (tracing off) and echo. */
    ratios(results: Map<string, Result>): Ratio[] {
      const cpu = (name: string) => results.get(name)?.serverCpuMs ?? Number.NaN;
      const echo = cpu("echo");
      return [
        {
          label: "tracing on: (context+otel - context@untraced) server CPU / echo call",
          value: (cpu("context+otel") - cpu("context@untraced")) / echo,
          target: 0.15,
        },
        {
          label: "tracing on: (context+otel - main server's context) server CPU / echo call",
          value: (cpu("context+otel") - cpu("context")) / echo,
        },
      ];
    },
    /**
     * What the column adds below the ratios: the exports, and the spans the server dropped (a full
     * queue would make tracing look cheaper than it is).
     */
    async note(): Promise<string> {
      let dropped = 0;
      for (const s of servers) {
        const text = await (await fetch(`${new URL(s.server.url).origin}/metrics`)).text();
        for (const m of text.matchAll(/^skillpilot_trace_spans_dropped_total\{[^}]*\} (\d+)$/gm))
          dropped += Number(m[1]);
      }
      return `tracing: ${exported} OTLP exports, ${dropped} spans dropped`;
    },
    async close() {
      for (const s of servers) s.caller.close();
      await Promise.all(servers.map((s) => stopProcess(s.server.child)));
      await new Promise<void>((resolve) => sink.close(() => resolve()));
    },
  };
}

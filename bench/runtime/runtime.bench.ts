/**
 * Runtime speed (issues #3, #4). Each server runs in its own process, so the load generator does
 * not share the server's event loop; 8 concurrent callers send MCP 2026-07-28 tool calls over
 * keep-alive HTTP (RawMcpCaller: the SDK client's wire format without its client-side cost, so the
 * server is what is measured; set-up uses the real SDK v2 client).
 *  (a) a bare SDK v2 echo tool mounted the same way (the baseline), before and after the coach
 * scenarios; their mean is the baseline of (b) and (c), so load drift on a shared machine cancels,
 * (b) get_skillpilot_learning_context on the real server, (c) complete_skillpilot_goal on the real
 * server, every call a durable commit (synchronous=FULL), (d) the Verified Recall round (issue #4):
 * start → answers → record, three calls and two durable
 * commits, each round on its own seeded learner whose recall is due (see recall-round.ts). It is
 *      measured in short slices interleaved with echo slices against the same, still running echo
 *      server (ABBA order), so both see the same machine load,
 *  (e) the round's floor: the same three calls against the same server code whose three recall
 *      handlers replay their first output (floor-server.ts), in slices interleaved with (d): what
 *      the round costs without its domain work, so (d) − (e) is what the domain adds.
 * Targets: (b) ≥ 0.6× and (c) ≥ 0.4× the echo throughput; one round (d) costs ≤ 4 echo calls. The
 * round's cost is primarily the server CPU per round ÷ server CPU per echo call (from /proc of each
 * server process: other work on the machine barely moves it); the throughput ratio (echo calls/s ÷
 * rounds/s, median over the interleaved pairs) is printed beside it.
 * Run: npm run bench:runtime
 * (BENCH_SECONDS, BENCH_CLIENTS, BENCH_PAIRS, BENCH_SLICE_SECONDS, BENCH_RECALL_POOL override the
 * defaults)
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  drive,
  median,
  summarize,
  type Call,
  type Measurement,
  type Result,
} from "./load-driver.js";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { fromPool, recallRounds, seedRecallLearners } from "./recall-round.js";
import { startProcess, stopProcess } from "./server-process.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
/** Interleaved echo/recall slice pairs, and the length of one slice. */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 6);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 1.5);
/** Seeded sessions per client for the Verified Recall rounds (each round uses one up). */
const RECALL_POOL = Number(process.env.BENCH_RECALL_POOL ?? 800);
const WARMUP_MS = 500;

async function connect(url: string): Promise<Client> {
  const client = new Client(
    { name: "bench", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** One learner per client with an active goal (launch, then choose the first option). */
async function activeLearners(url: string): Promise<{ id: string; version: number }[]> {
  const origin = new URL(url).origin;
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connect(url)));
  try {
    return await Promise.all(
      clients.map(async (client, i) => {
        const res = await fetch(`${origin}/api/sessions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ learner: `bench-${i}` }),
        });
        const id = ((await res.json()) as { learningSessionId: string }).learningSessionId;
        const ctx = (
          await client.callTool({
            name: "get_skillpilot_learning_context",
            arguments: { learningSessionId: id },
          })
        ).structuredContent as { stateVersion: number; options: { payload: string }[] };
        const chosen = await client.callTool({
          name: "choose_skillpilot_option",
          arguments: {
            learningSessionId: id,
            expectedStateVersion: ctx.stateVersion,
            clientRequestId: randomUUID(),
            option: ctx.options[0].payload,
          },
        });
        return { id, version: (chosen.structuredContent as { stateVersion: number }).stateVersion };
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-"));
// Seeded before the server starts: one learner with a due recall item per Verified Recall round.
const recallPool = await seedRecallLearners(root, dir, CLIENTS * RECALL_POOL);
const floorDir = path.join(dir, "floor");
const [floorSession] = await seedRecallLearners(root, floorDir, 1);
const echoServer = await startProcess(root, [
  "--import",
  "tsx",
  path.join(root, "bench/runtime/echo-server.ts"),
]);
const floorServer = await startProcess(root, [
  "--import",
  "tsx",
  path.join(root, "bench/runtime/floor-server.ts"),
  floorDir,
]);
const coachServer = await startProcess(
  root,
  [path.join(root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", dir],
  { SKILLPILOT_LOG: path.join(dir, "calls.log") },
);
const echoCaller = new RawMcpCaller(echoServer.url, CLIENTS);
const coachCaller = new RawMcpCaller(coachServer.url, CLIENTS);
const floorCaller = new RawMcpCaller(floorServer.url, CLIENTS);
let results: {
  echoBefore: Result;
  context: Result;
  complete: Result;
  recall: Result;
  floor: Result;
  echoInterleaved: Result;
  echoAfter: Result;
  pairRatios: number[];
};
try {
  const echoCalls: Call[] = Array.from(
    { length: CLIENTS },
    () => async () => !(await echoCaller.call("echo", { text: "hi" })).isError,
  );
  const echoPid = echoServer.child.pid;
  const coachPid = coachServer.child.pid;
  const echoBefore = summarize("echo (bare SDK v2), before", [
    await drive(echoCalls, SECONDS, WARMUP_MS, echoPid),
  ]);

  const sessions = await activeLearners(coachServer.url);
  const context = summarize("get_skillpilot_learning_context", [
    await drive(
      sessions.map(
        (s) => async () =>
          !(await coachCaller.call("get_skillpilot_learning_context", { learningSessionId: s.id }))
            .isError,
      ),
      SECONDS,
      WARMUP_MS,
      coachPid,
    ),
  ]);
  // needsMorePractice keeps the goal active, so every call is a new, durable write.
  const completeCalls: Call[] = sessions.map((s) => async () => {
    const r = await coachCaller.call("complete_skillpilot_goal", {
      learningSessionId: s.id,
      expectedStateVersion: s.version,
      clientRequestId: randomUUID(),
      decision: "needsMorePractice",
    });
    if (r.isError) return false;
    s.version = (r.structuredContent as { receipt: { stateVersion: number } }).receipt.stateVersion;
    return true;
  });
  const complete = summarize("complete_skillpilot_goal (durable)", [
    await drive(completeCalls, SECONDS, WARMUP_MS, coachPid),
  ]);

  // Interleaved: echo and recall slices alternate (ABBA) against the two running servers.
  const roundCalls: Call[] = Array.from({ length: CLIENTS }, (_, i) =>
    recallRounds(coachCaller, fromPool(recallPool.slice(i * RECALL_POOL, (i + 1) * RECALL_POOL))),
  );
  // The floor server replays each handler's first output: one round alone records them.
  if (!(await recallRounds(floorCaller, () => floorSession)()))
    throw new Error("the floor server's first round failed");
  const floorCalls: Call[] = Array.from({ length: CLIENTS }, () =>
    recallRounds(floorCaller, () => floorSession),
  );
  const floorPid = floorServer.child.pid;
  const echoSlices: Measurement[] = [];
  const recallSlices: Measurement[] = [];
  const floorSlices: Measurement[] = [];
  const pairRatios: number[] = [];
  // The recall paths get the warm-up echo had before its first measurement (a whole scenario), so
  // both are measured with their code optimized; each slice then re-warms its connections briefly.
  await drive(roundCalls, 0, SECONDS * 1000);
  await drive(floorCalls, 0, SECONDS * 1000);
  for (let pair = 0; pair < PAIRS; pair++) {
    const warm = 100;
    // echo, recall, floor — then the reverse order, so drift over time affects all three alike.
    const order =
      pair % 2 === 0
        ? (["echo", "recall", "floor"] as const)
        : (["floor", "recall", "echo"] as const);
    const slice: Partial<Record<(typeof order)[number], Measurement>> = {};
    for (const which of order) {
      if (which === "echo") slice.echo = await drive(echoCalls, SLICE_SECONDS, warm, echoPid);
      else if (which === "recall")
        slice.recall = await drive(roundCalls, SLICE_SECONDS, warm, coachPid);
      else slice.floor = await drive(floorCalls, SLICE_SECONDS, warm, floorPid);
    }
    const { echo, recall, floor } = slice as Record<(typeof order)[number], Measurement>;
    echoSlices.push(echo);
    recallSlices.push(recall);
    floorSlices.push(floor);
    pairRatios.push(
      echo.latencies.length / echo.seconds / (recall.latencies.length / recall.seconds),
    );
  }
  const recall = summarize(
    `Verified Recall round (3 calls), ${PAIRS} slices`,
    recallSlices,
    "rounds",
  );
  const floor = summarize(`round floor (handlers replay), ${PAIRS} slices`, floorSlices, "rounds");
  const echoInterleaved = summarize(`echo (bare SDK v2), ${PAIRS} slices`, echoSlices);
  const echoAfter = summarize("echo (bare SDK v2), after", [
    await drive(echoCalls, SECONDS, WARMUP_MS, echoPid),
  ]);
  results = {
    echoBefore,
    context,
    complete,
    recall,
    floor,
    echoInterleaved,
    echoAfter,
    pairRatios,
  };
} finally {
  echoCaller.close();
  coachCaller.close();
  floorCaller.close();
  await Promise.all([
    stopProcess(echoServer.child),
    stopProcess(coachServer.child),
    stopProcess(floorServer.child),
  ]);
  await rm(dir, { recursive: true, force: true });
}

const { echoBefore, context, complete, recall, floor, echoInterleaved, echoAfter, pairRatios } =
  results;
const echo: Result = {
  name: "echo baseline (mean of before/after)",
  calls: echoBefore.calls + echoAfter.calls,
  errors: echoBefore.errors + echoAfter.errors,
  perSecond: (echoBefore.perSecond + echoAfter.perSecond) / 2,
  p50: (echoBefore.p50 + echoAfter.p50) / 2,
  p99: (echoBefore.p99 + echoAfter.p99) / 2,
  ...(echoBefore.serverCpuMs !== undefined &&
    echoAfter.serverCpuMs !== undefined && {
      serverCpuMs: (echoBefore.serverCpuMs + echoAfter.serverCpuMs) / 2,
    }),
};
const unitName = (r: Result) => r.unit ?? "calls";
const fmt = (r: Result) =>
  `${r.name.padEnd(40)} ${r.perSecond.toFixed(0).padStart(7)} ${unitName(r)}/s   ` +
  `p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ` +
  `ms   (${r.calls} ${unitName(r)}, ${r.errors} ` +
  "errors)" +
  (r.serverCpuMs === undefined
    ? ""
    : `   server CPU ${r.serverCpuMs.toFixed(3)} ms/${unitName(r).replace(/s$/, "")}`);
process.stdout.write(
  `runtime benchmark: ${CLIENTS} concurrent callers (MCP 2026-07-28 over ` +
    `keep-alive HTTP), ${SECONDS} s per scenario, recall in ${PAIRS} x ` +
    `${SLICE_SECONDS} s slices interleaved with echo\n`,
);
for (const r of [echoBefore, context, complete, echoInterleaved, recall, floor, echoAfter, echo])
  process.stdout.write(`${fmt(r)}\n`);
const verdict = (value: number, target: number) =>
  `${value.toFixed(2)}x (target >= ${target}x: ${value >= target ? "met" : "NOT met"})`;
process.stdout.write(`ratio context/echo:  ${verdict(context.perSecond / echo.perSecond, 0.6)}\n`);
process.stdout.write(`ratio complete/echo: ${verdict(complete.perSecond / echo.perSecond, 0.4)}\n`);
// A round is three calls; its cost in echo calls, against the echo slices interleaved with it.
const costVerdict = (value: number) =>
  `${value.toFixed(2)}x (target <= 4x: ${value <= 4 ? "met" : "NOT met"})`;
if (
  recall.serverCpuMs !== undefined &&
  floor.serverCpuMs !== undefined &&
  echoInterleaved.serverCpuMs !== undefined
) {
  const perEcho = echoInterleaved.serverCpuMs;
  process.stdout.write(
    `ratio recall round/echo (cost, server CPU per round / per echo call): ` +
      `${costVerdict(recall.serverCpuMs / perEcho)}\n`,
  );
  process.stdout.write(
    `  of which: floor (the three calls with replayed outputs) ` +
      `${(floor.serverCpuMs / perEcho).toFixed(2)}x, domain work (round - floor) ` +
      `${((recall.serverCpuMs - floor.serverCpuMs) / perEcho).toFixed(2)}x\n`,
  );
}
process.stdout.write(
  `ratio recall round/echo (throughput, echo calls/s / rounds/s, median of ` +
    `${PAIRS} pairs): ${costVerdict(median(pairRatios))}, pairs ` +
    `${Math.min(...pairRatios).toFixed(2)}-${Math.max(...pairRatios).toFixed(2)}x\n`,
);
if (context.errors || complete.errors || recall.errors || floor.errors) process.exitCode = 1;

/**
 * Runtime speed (issue #3). One run, three servers' worth of numbers, each in its own process so the
 * load generator does not share the server's event loop:
 *  (a) a bare SDK v2 echo tool mounted the same way (the baseline),
 *  (b) get_skillpilot_learning_context on the real server,
 *  (c) complete_skillpilot_goal on the real server, every call a durable commit (synchronous=FULL).
 * 8 concurrent callers send MCP 2026-07-28 tool calls for 5 s per scenario over keep-alive HTTP
 * (RawMcpCaller: the SDK client's wire format without its client-side cost, so the server is what is
 * measured; set-up uses the real SDK v2 client). The echo baseline runs before and after the coach
 * scenarios and their mean is the baseline, so load drift on a shared machine cancels out.
 *  (d) a Verified Recall round (issue #4): start → answers → record, three calls, two durable commits,
 *      each round on its own seeded learner whose recall is due (see recall-round.ts).
 * Prints calls/s (rounds/s for d), p50/p99 latency and the ratios against (a). Targets: (b) ≥ 0.6×,
 * (c) ≥ 0.4×, and one round (d) costs ≤ 4 echo calls (echo calls/s ÷ rounds/s); the server CPU per
 * round ÷ per echo call (from /proc of each server process) is printed for reference.
 * Run: npm run bench:runtime   (BENCH_SECONDS / BENCH_CLIENTS override the defaults)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { recallRounds, seedRecallLearners } from "./recall-round.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
/** Seeded sessions per client for the Verified Recall rounds (each round uses one up). */
const RECALL_POOL = Number(process.env.BENCH_RECALL_POOL ?? 400);

interface Result {
  name: string;
  /** What one unit of `perSecond` is: "calls" unless a scenario says otherwise. */
  unit?: string;
  /** Server CPU time per unit (ms), from the server process's /proc counters. */
  serverCpuMs?: number;
  calls: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Start a server process and wait for the MCP URL it prints. */
function startProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /MCP endpoint (http:\/\/\S+\/mcp)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Run `call` in a loop on each client for SECONDS; `call` returns whether the call succeeded. */
/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from /proc. Clock ticks
 * are 100 per second on Linux; undefined where /proc is missing.
 */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function drive(name: string, makeCall: (i: number) => () => Promise<boolean>, serverPid?: number): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  const warmEnd = performance.now() + 500;
  const calls = Array.from({ length: CLIENTS }, (_, i) => makeCall(i));
  // Short warm-up so JIT and caches settle before measuring.
  await Promise.all(calls.map(async (call) => {
    while (performance.now() < warmEnd) await call();
  }));
  const start = performance.now();
  const end = start + SECONDS * 1000;
  const cpuBefore = processCpuMs(serverPid);
  await Promise.all(
    calls.map(async (call) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await call();
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpuAfter = processCpuMs(serverPid);
  latencies.sort((a, b) => a - b);
  const serverCpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / latencies.length;
  return { name, calls: latencies.length, errors, perSecond: latencies.length / elapsed, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), serverCpuMs };
}

async function echoScenario(label: string): Promise<Result> {
  const { child, url } = await startProcess(["--import", "tsx", path.join(root, "bench/runtime/echo-server.ts")]);
  const caller = new RawMcpCaller(url, CLIENTS);
  try {
    return await drive(`echo (bare SDK v2), ${label}`, () => async () => !(await caller.call("echo", { text: "hi" })).isError, child.pid);
  } finally {
    caller.close();
    await stopProcess(child);
  }
}

async function coachScenarios(): Promise<Result[]> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-"));
  // Seeded before the server starts: one learner with a due recall item per Verified Recall round.
  const recallPool = await seedRecallLearners(root, dir, CLIENTS * RECALL_POOL);
  const { child, url } = await startProcess([path.join(root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", dir], { SKILLPILOT_LOG: path.join(dir, "calls.log") });
  const origin = new URL(url).origin;
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connect(url)));
  const caller = new RawMcpCaller(url, CLIENTS);
  try {
    // One learner per client, each with an active goal (launch, then choose the first option).
    const sessions: { id: string; version: number }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const res = await fetch(`${origin}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ learner: `bench-${i}` }) });
      const id = ((await res.json()) as { learningSessionId: string }).learningSessionId;
      const ctx = (await clients[i].callTool({ name: "get_skillpilot_learning_context", arguments: { learningSessionId: id } })).structuredContent as { stateVersion: number; options: { payload: string }[] };
      const chosen = await clients[i].callTool({
        name: "choose_skillpilot_option",
        arguments: { learningSessionId: id, expectedStateVersion: ctx.stateVersion, clientRequestId: randomUUID(), option: ctx.options[0].payload },
      });
      sessions.push({ id, version: (chosen.structuredContent as { stateVersion: number }).stateVersion });
    }
    const context = await drive("get_skillpilot_learning_context", (i) => async () => {
      const r = await caller.call("get_skillpilot_learning_context", { learningSessionId: sessions[i].id });
      return !r.isError;
    });
    // needsMorePractice keeps the goal active, so every call is a new, durable write.
    const complete = await drive("complete_skillpilot_goal (durable)", (i) => async () => {
      const s = sessions[i];
      const r = await caller.call("complete_skillpilot_goal", {
        learningSessionId: s.id,
        expectedStateVersion: s.version,
        clientRequestId: randomUUID(),
        decision: "needsMorePractice",
      });
      if (r.isError) return false;
      s.version = (r.structuredContent as { receipt: { stateVersion: number } }).receipt.stateVersion;
      return true;
    });
    const recall = await drive("Verified Recall round (3 calls)", (i) => recallRounds(caller, recallPool.slice(i * RECALL_POOL, (i + 1) * RECALL_POOL)), child.pid);
    return [context, complete, { ...recall, unit: "rounds" }];
  } finally {
    caller.close();
    await Promise.all(clients.map((c) => c.close()));
    await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  }
}

const echoBefore = await echoScenario("before");
const [context, complete, recall] = await coachScenarios();
const echoAfter = await echoScenario("after");
const echo: Result = {
  name: "echo baseline (mean of before/after)",
  calls: echoBefore.calls + echoAfter.calls,
  errors: echoBefore.errors + echoAfter.errors,
  perSecond: (echoBefore.perSecond + echoAfter.perSecond) / 2,
  p50: (echoBefore.p50 + echoAfter.p50) / 2,
  p99: (echoBefore.p99 + echoAfter.p99) / 2,
  serverCpuMs: echoBefore.serverCpuMs === undefined || echoAfter.serverCpuMs === undefined ? undefined : (echoBefore.serverCpuMs + echoAfter.serverCpuMs) / 2,
};
const fmt = (r: Result) =>
  `${r.name.padEnd(40)} ${r.perSecond.toFixed(0).padStart(7)} ${r.unit ?? "calls"}/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.calls} ${r.unit ?? "calls"}, ${r.errors} errors)${r.serverCpuMs === undefined ? "" : `   server CPU ${r.serverCpuMs.toFixed(3)} ms/${(r.unit ?? "calls").replace(/s$/, "")}`}`;
process.stdout.write(`runtime benchmark: ${CLIENTS} concurrent callers (MCP 2026-07-28 over keep-alive HTTP), ${SECONDS} s per scenario\n`);
for (const r of [echoBefore, context, complete, recall, echoAfter, echo]) process.stdout.write(`${fmt(r)}\n`);
const ratio = (r: Result) => r.perSecond / echo.perSecond;
const verdict = (value: number, target: number) => `${value.toFixed(2)}x (target >= ${target}x: ${value >= target ? "met" : "NOT met"})`;
process.stdout.write(`ratio context/echo:  ${verdict(ratio(context), 0.6)}\n`);
process.stdout.write(`ratio complete/echo: ${verdict(ratio(complete), 0.4)}\n`);
// A round is three calls. Its cost in echo calls, measured like the targets above: echo calls/s ÷
// rounds/s at saturation. For reference also the server CPU per round ÷ per echo call (from /proc;
// it leaves out I/O waits but also most of the noise other work on the machine adds).
const roundCost = echo.perSecond / recall.perSecond;
process.stdout.write(`ratio recall round/echo (cost): ${roundCost.toFixed(2)}x (target <= 4x: ${roundCost <= 4 ? "met" : "NOT met"})\n`);
if (recall.serverCpuMs !== undefined && echo.serverCpuMs !== undefined)
  process.stdout.write(`ratio recall round/echo (server CPU, for reference): ${(recall.serverCpuMs / echo.serverCpuMs).toFixed(2)}x\n`);
if (context.errors || complete.errors || recall.errors) process.exitCode = 1;

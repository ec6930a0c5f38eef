/**
 * Soak: a long run of mixed authenticated traffic (soak-mix.ts: context reads, goal completions,
 * Verified Recall rounds, tools/list and a few calls the server must refuse) from `--clients`
 * concurrent clients against ONE coach server process (the compiled CLI, `skillpilot start`,
 * SQLite with durable commits), over keep-alive HTTP in the SDK v2 client's 2026-07-28 wire format
 * with each learner's own bearer token (RawMcpCaller). After `--warmup` unmeasured calls come
 * `--calls` measured ones (default a million), the whole traffic bounded by `--minutes`. The run
 * goes in stretches of 15 s; between stretches, outside them, the Verified Recall pool mints the
 * due learners the next stretch can use (recall-pool.ts), each with one context read made then
 * (a round comes up in a conversation), which is not one of the counted calls.
 * It prints the server's RSS (from /proc) at start, after the warm-up and at the end (target: at
 * most 5% growth after the warm-up), the JSON Schema compilations the server counts on /metrics
 * (`skillpilot_schema_compilations_total`) after the warm-up (target 0), p50/p99 latency and server
 * CPU per call of the first against the last tenth of the measured calls, the calls by tool and
 * answer code, and lost writes: after the server stopped, every write it answered as saved must be
 * in the SQLite file (its receipt, session and state version; each writing learner's version).
 * Not for CI. Run: npm run bench:soak -- --calls 20000   (--help for every option)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { databaseFileName } from "../../runtime/store/sqlite-store.js";
import { benchTokens } from "../runtime/bench-tokens.js";
import { activeLearners } from "../runtime/coach-learners.js";
import type { Call } from "../runtime/load-driver.js";
import { RawMcpCaller } from "../runtime/raw-mcp-client.js";
import { seededRecallPool } from "../runtime/recall-pool.js";
import { BENCH_MCP_URL, BENCH_PUBLIC_ENV, openRecallSeeder } from "../runtime/recall-round.js";
import { startProcess, stopProcess } from "../runtime/server-process.js";
import { checkWrites } from "./lost-writes.js";
import { sampleServer, type ServerSample } from "./server-samples.js";
import { SoakCaller } from "./soak-caller.js";
import { SoakLog } from "./soak-log.js";
import { mixedTraffic } from "./soak-mix.js";
import { soakOptions } from "./soak-options.js";
import * as report from "./soak-report.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const options = soakOptions(process.argv.slice(2), process.env);
/** Learners with an active goal per client (each client writes only its own). */
const LEARNERS_PER_CLIENT = 4;
/** Due learners each client's recall queue starts with (before any rate is known). */
const RECALL_INITIAL = 50;
const STRETCH_SECONDS = 15;

/** The server's schema-compilation counter, from /metrics (open on loopback). */
async function compilations(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const m = /^skillpilot_schema_compilations_total (\d+)$/m.exec(text);
  if (!m) throw new Error("the server's /metrics has no skillpilot_schema_compilations_total");
  return Number(m[1]);
}

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-soak-"));
// Opened before the server starts (it migrates the data directory); it mints recall learners.
const seeder = await openRecallSeeder(root, dir, { learnerPrefix: "soak-recall-" });
const server = await startProcess(
  root,
  [path.join(root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", dir],
  { SKILLPILOT_LOG: path.join(dir, "calls.log"), ...BENCH_PUBLIC_ENV },
);
const origin = new URL(server.url).origin;
const log = new SoakLog(options.calls + options.clients * 3);
const sampler = sampleServer(server.child.pid, () => log.measuredCalls);
const tokens = await benchTokens(dir, BENCH_MCP_URL);
const caller = new SoakCaller(server.url, options.clients, tokens.tokenFor, log);
const touches = new RawMcpCaller(server.url, options.clients, tokens.tokenFor);
let unexpected = 0;
let sendingMs = 0;
let measuredMs = 0;
let start: ServerSample | undefined;
let warm: ServerSample | undefined;
let end: ServerSample | undefined;
const counted = { start: 0, warm: 0, end: 0 };
let learners: Awaited<ReturnType<typeof activeLearners>> = [];
let waited = 0;

try {
  start = sampler.read();
  counted.start = await compilations(origin);
  learners = await activeLearners(
    origin,
    caller,
    Array.from({ length: options.clients * LEARNERS_PER_CLIENT }, (_, i) => `soak-${i}`),
    tokens.bind,
  );
  // The pool's own context reads go on an uncounted caller: they come in bursts between stretches.
  const pool = seededRecallPool(seeder, tokens.bind, [touches], options.clients, RECALL_INITIAL);
  const traffic: Call[] = Array.from({ length: options.clients }, (_, i) => {
    const own = learners.slice(i * LEARNERS_PER_CLIENT, (i + 1) * LEARNERS_PER_CLIENT);
    return mixedTraffic(
      i,
      caller,
      own,
      pool.next(i),
      tokens.tokenFor({ learningSessionId: own[0].id }),
    );
  });
  const deadline = performance.now() + options.minutes * 60_000;
  /** Send traffic until the phase has made `target` calls or the time is up. */
  const phase = async (target: number, label: string) => {
    let tenth = 0;
    while (log.calls() < target && performance.now() < deadline) {
      await pool.prepare(STRETCH_SECONDS);
      const t0 = performance.now();
      const stretchEnd = Math.min(deadline, t0 + STRETCH_SECONDS * 1000);
      await Promise.all(
        traffic.map(async (unit) => {
          while (log.calls() < target && performance.now() < stretchEnd)
            if (!(await unit().catch(() => false))) unexpected++;
        }),
      );
      sendingMs += performance.now() - t0;
      const done = Math.floor((log.calls() / target) * 10);
      if (done > tenth) {
        tenth = done;
        const rss = sampler.read()?.rssBytes;
        process.stderr.write(
          `soak ${label}: ${log.calls()} of ${target} calls` +
            (rss === undefined ? "" : `, server RSS ${(rss / 2 ** 20).toFixed(1)} MB`) +
            "\n",
        );
      }
    }
  };
  await phase(options.warmup, "warm-up");
  warm = sampler.read();
  counted.warm = await compilations(origin);
  log.measuring = true;
  sendingMs = 0;
  const measuredFrom = performance.now();
  sampler.start();
  await phase(options.calls, "measured");
  end = sampler.stop();
  measuredMs = performance.now() - measuredFrom;
  counted.end = await compilations(origin);
  waited = pool.waited;
} finally {
  caller.close();
  touches.close();
  await stopProcess(server.child);
  await seeder.close();
}
const check = checkWrites(path.join(dir, databaseFileName), log.receipts, learners);
await rm(dir, { recursive: true, force: true });

const n = Math.min(log.measuredCalls, log.latencies.length);
const minutes = measuredMs / 60_000;
let out =
  `soak benchmark: ${options.clients} clients, mixed authenticated traffic against one coach ` +
  `server process (compiled CLI, SQLite, durable commits), MCP 2026-07-28 over keep-alive HTTP\n` +
  `${log.measuredCalls.toLocaleString("en-US")} measured calls` +
  (log.measuredCalls < options.calls
    ? ` (stopped by --minutes ${options.minutes} before ${options.calls.toLocaleString("en-US")})`
    : "") +
  ` after ${log.warmupCalls.toLocaleString("en-US")} set-up and warm-up calls; ` +
  `${minutes.toFixed(1)} min, ${(log.measuredCalls / (sendingMs / 1000)).toFixed(0)} calls/s while ` +
  `sending; ${waited} Verified Recall rounds waited for a learner\n`;
if (start && warm && end)
  out += report.memoryLines(start.rssBytes, warm.rssBytes, end.rssBytes, sampler.samples);
out += report.compilationLines(counted.start, counted.warm, counted.end);
if (n > 0) out += report.driftLines(log.latencies.subarray(0, n), sampler.samples);
out += report.outcomeLines(log.outcomes);
out +=
  `calls not answered as they must be: ${unexpected}; transport errors: ${log.transportErrors}\n` +
  report.writeLines(check);
process.stdout.write(out);
if (unexpected || log.transportErrors || check.lost.length || check.versionMismatches.length)
  process.exitCode = 1;

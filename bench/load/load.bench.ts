/**
 * Load (issue #15 item 7): 60 s of mixed traffic from 16 concurrent clients against the compiled
 * server (`node bin/skillpilot.js start`, embedded SQLite, durable commits), over keep-alive HTTP
 * in the SDK v2 client's 2026-07-28 wire format (RawMcpCaller). Every client picks, call by call:
 *   45 % get_skillpilot_learning_context of a random learner (read),
 *   30 % complete_skillpilot_goal (needsMorePractice: a new durable write each time) of a random
 *        learner with the version last seen for it; learners are shared, so writers race and the
 *        loser gets STATE_CONFLICT and reloads the context (as a chat client would),
 *   10 % an exact retry of an earlier successful write (answered from the idempotency record),
 *   15 % a Verified Recall round (start → answers → record) on a seeded learner whose recall is due.
 * It prints p50/p99 per tool, the HTTP 5xx count, transport and JSON-RPC errors, INTERNAL_ERROR
 * results, and lost writes: after the run the database must hold every receipt a client was
 * given, with its stateVersion, and each learner's version must be its start version plus its
 * successful writes. A bare SDK v2 echo tool mounted the same way (bench/runtime/echo-server.ts),
 * warm, measured for 5 s before and after in the same run, is the baseline of the ratio line.
 * A benchmark, not a test: it exits 1 only on a 5xx, an internal error or a lost write.
 * Run: npm run bench:load
 * (BENCH_LOAD_SECONDS 60, BENCH_LOAD_CLIENTS 16, BENCH_LOAD_LEARNERS 64, BENCH_LOAD_RECALL_POOL
 * 4000, BENCH_LOAD_WARMUP_SECONDS 3, BENCH_ECHO_SECONDS 5)
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drive, summarize, type Call, type Result } from "../runtime/load-driver.js";
import { benchTokens } from "../runtime/bench-tokens.js";
import { type RawAnswer, RawMcpCaller } from "../runtime/raw-mcp-client.js";
import { BENCH_MCP_URL, BENCH_PUBLIC_ENV, seedRecallLearners } from "../runtime/recall-round.js";
import { processCpuMs, startProcess, stopProcess } from "../runtime/server-process.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 16);
const LEARNERS = Number(process.env.BENCH_LOAD_LEARNERS ?? 64);
const RECALL_POOL = Number(process.env.BENCH_LOAD_RECALL_POOL ?? 4000);
const WARMUP_SECONDS = Number(process.env.BENCH_LOAD_WARMUP_SECONDS ?? 3);
const ECHO_SECONDS = Number(process.env.BENCH_ECHO_SECONDS ?? 5);

type Structured = Record<string, unknown> & {
  stateVersion?: number;
  receipt?: { receiptId: string; stateVersion: number };
};

/** Everything the run saw, per tool and overall. */
const stats = {
  latencies: new Map<string, number[]>(),
  codes: new Map<string, Map<string, number>>(),
  http5xx: 0,
  transportErrors: 0,
  rpcErrors: 0,
  internalErrors: 0,
};
let measuring = false;

function count(tool: string, code: string): void {
  const codes = stats.codes.get(tool) ?? new Map<string, number>();
  codes.set(code, (codes.get(code) ?? 0) + 1);
  stats.codes.set(tool, codes);
}

/** Receipts the clients were given (their writes), to find in the database at the end. */
const receipts = new Map<string, { sid: string; stateVersion: number }>();

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-load-"));
// Seeded before the server starts: one learner with due recall items per Verified Recall round.
const recallPool = await seedRecallLearners(root, dir, RECALL_POOL);
const echoServer = await startProcess(root, [
  "--import",
  "tsx",
  path.join(root, "bench/runtime/echo-server.ts"),
]);
const coachServer = await startProcess(
  root,
  [path.join(root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", dir],
  { SKILLPILOT_LOG: path.join(dir, "calls.log"), ...BENCH_PUBLIC_ENV },
);
const tokens = await benchTokens(dir, BENCH_MCP_URL);
await tokens.refresh();
const coach = new RawMcpCaller(coachServer.url, CLIENTS, tokens.tokenFor);
const echo = new RawMcpCaller(echoServer.url, CLIENTS);

/** One measured call: latency per tool label, HTTP status and result code counted. */
async function call(
  label: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ok: boolean; code: string; out?: Structured }> {
  const t0 = performance.now();
  let answer: RawAnswer;
  try {
    answer = await coach.send(name, args);
  } catch {
    if (measuring) stats.transportErrors++;
    return { ok: false, code: "TRANSPORT_ERROR" };
  }
  const ms = performance.now() - t0;
  const { status, message } = answer;
  const result = message?.result;
  const code =
    status >= 500
      ? `HTTP_${status}`
      : !result
        ? "JSONRPC_ERROR"
        : result.isError
          ? (/^([A-Z_]+):/.exec(
              String((result.content?.[0] as { text?: string } | undefined)?.text),
            )?.[1] ?? "UNKNOWN")
          : "OK";
  if (measuring) {
    const list = stats.latencies.get(label) ?? [];
    list.push(ms);
    stats.latencies.set(label, list);
    count(label, code);
    if (status >= 500) stats.http5xx++;
    else if (!result) stats.rpcErrors++;
    if (code === "INTERNAL_ERROR") stats.internalErrors++;
  }
  return { ok: code === "OK", code, out: result?.structuredContent as Structured | undefined };
}

// Learners with an active goal, shared by all clients: the version last seen for each.
const learners: { sid: string; version: number; start: number; writes: number }[] = [];
for (let i = 0; i < LEARNERS; i++) {
  const res = await fetch(`${new URL(coachServer.url).origin}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ learner: `load-${i}`, locale: "en" }),
  });
  const sid = ((await res.json()) as { learningSessionId: string }).learningSessionId;
  await tokens.refresh();
  const ctx = (await coach.call("get_skillpilot_learning_context", { learningSessionId: sid }))
    .structuredContent as { stateVersion: number; options: { payload: string }[] };
  const chosen = await coach.call("choose_skillpilot_option", {
    learningSessionId: sid,
    expectedStateVersion: ctx.stateVersion,
    clientRequestId: randomUUID(),
    option: ctx.options[0].payload,
  });
  const version = (chosen.structuredContent as { stateVersion: number }).stateVersion;
  learners.push({ sid, version, start: version, writes: 0 });
}
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
/** Earlier successful writes, for exact retries. */
const answered: Record<string, unknown>[] = [];
let nextRecall = 0;
let recallRounds = 0;

async function mixedCall(): Promise<boolean> {
  const r = Math.random();
  if (r < 0.15 && nextRecall < recallPool.length) {
    const learningSessionId = recallPool[nextRecall++];
    const started = await call(
      "start_skillpilot_verified_recall",
      "start_skillpilot_verified_recall",
      {
        learningSessionId,
      },
    );
    if (!started.ok) return false;
    const batch = started.out as { batchCapability: string; batch: { items: unknown[] } };
    const revealed = await call(
      "get_skillpilot_verified_recall_answers",
      "get_skillpilot_verified_recall_answers",
      { learningSessionId, batchCapability: batch.batchCapability },
    );
    if (!revealed.ok) return false;
    const recorded = await call(
      "record_skillpilot_verified_recall_results",
      "record_skillpilot_verified_recall_results",
      {
        learningSessionId,
        gradingCapability: (revealed.out as { gradingCapability: string }).gradingCapability,
        assessments: batch.batch.items.map(() => ({ passed: Math.random() < 0.8 })),
      },
    );
    if (recorded.ok && recorded.out?.receipt) {
      receipts.set(recorded.out.receipt.receiptId, {
        sid: learningSessionId,
        stateVersion: recorded.out.receipt.stateVersion,
      });
      if (measuring) recallRounds++;
    }
    return recorded.ok;
  }
  if (r < 0.25 && answered.length > 0) {
    const again = await call(
      "complete_skillpilot_goal (exact retry)",
      "complete_skillpilot_goal",
      pick(answered),
    );
    return again.ok;
  }
  const learner = pick(learners);
  if (r < 0.55) {
    const args = {
      learningSessionId: learner.sid,
      expectedStateVersion: learner.version,
      clientRequestId: randomUUID(),
      decision: "needsMorePractice",
    };
    const done = await call("complete_skillpilot_goal", "complete_skillpilot_goal", args);
    if (done.ok && done.out?.receipt) {
      const { receiptId, stateVersion } = done.out.receipt;
      receipts.set(receiptId, { sid: learner.sid, stateVersion });
      learner.version = Math.max(learner.version, stateVersion);
      learner.writes++;
      if (answered.length < 10_000) answered.push(args);
      return true;
    }
    if (done.code !== "STATE_CONFLICT") return false;
    // The conflict a chat client reloads once for (C2); the reload is a context call.
  }
  const ctx = await call("get_skillpilot_learning_context", "get_skillpilot_learning_context", {
    learningSessionId: learner.sid,
  });
  if (ctx.ok && ctx.out?.stateVersion !== undefined)
    learner.version = Math.max(learner.version, ctx.out.stateVersion);
  return ctx.ok;
}

const echoCalls: Call[] = Array.from(
  { length: CLIENTS },
  () => async () => !(await echo.call("echo", { text: "hi" })).isError,
);
const mixedCalls: Call[] = Array.from({ length: CLIENTS }, () => mixedCall);
let echoBefore: Result;
let echoAfter: Result;
let mixed: Result;
let serverCpuMs: number | undefined;
let lost: string[] = [];
try {
  echoBefore = summarize("echo (bare SDK v2), before", [
    await drive(echoCalls, ECHO_SECONDS, 1000, echoServer.child.pid),
  ]);
  // Warm the coach server's paths unmeasured, then the measured stretch.
  await drive(mixedCalls, 0, WARMUP_SECONDS * 1000);
  measuring = true;
  const cpuBefore = processCpuMs(coachServer.child.pid);
  const measured = await drive(mixedCalls, SECONDS, 0, coachServer.child.pid);
  measuring = false;
  const cpuAfter = processCpuMs(coachServer.child.pid);
  mixed = summarize("mixed traffic (all calls)", [
    {
      ...measured,
      latencies: [...stats.latencies.values()].flat(),
    },
  ]);
  serverCpuMs =
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : (cpuAfter - cpuBefore) / mixed.calls;
  echoAfter = summarize("echo (bare SDK v2), after", [
    await drive(echoCalls, ECHO_SECONDS, 1000, echoServer.child.pid),
  ]);
} finally {
  coach.close();
  echo.close();
  await Promise.all([stopProcess(echoServer.child), stopProcess(coachServer.child)]);
}

// Lost writes: every receipt a client holds is in the database with its version, and every
// learner's version is its start plus its successful writes.
const db = new Database(path.join(dir, "skillpilot.sqlite"), { readonly: true });
try {
  const byId = db.prepare<[string], { state_version: number }>(
    "SELECT state_version FROM receipts WHERE receipt_id = ?",
  );
  for (const [receiptId, { stateVersion }] of receipts) {
    const row = byId.get(receiptId);
    if (!row || row.state_version !== stateVersion) lost.push(receiptId);
  }
  const versionOf = db.prepare<[string], { state_version: number }>(
    "SELECT s.state_version FROM learner_state s JOIN sessions x ON x.learner_id = s.learner_id " +
      "WHERE x.session_id = ?",
  );
  for (const l of learners) {
    const row = versionOf.get(l.sid);
    if (row?.state_version !== l.start + l.writes)
      lost.push(`${l.sid.slice(0, 8)}…: version ${row?.state_version}, ${l.start}+${l.writes}`);
  }
} finally {
  db.close();
}
await rm(dir, { recursive: true, force: true });
lost = lost.slice(0, 20);

const echoPerSecond = (echoBefore.perSecond + echoAfter.perSecond) / 2;
const echoP50 = (echoBefore.p50 + echoAfter.p50) / 2;
const echoP99 = (echoBefore.p99 + echoAfter.p99) / 2;
const q = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
const line = (label: string, values: number[], codes?: Map<string, number>) => {
  const sorted = [...values].sort((a, b) => a - b);
  const other = [...(codes ?? [])].filter(([c]) => c !== "OK").map(([c, n]) => `${c} ${n}`);
  return (
    `${label.padEnd(42)} ${String(sorted.length).padStart(7)}   p50 ${q(sorted, 0.5).toFixed(2).padStart(6)} ms` +
    `   p99 ${q(sorted, 0.99).toFixed(2).padStart(7)} ms${other.length ? `   (${other.join(", ")})` : ""}\n`
  );
};
let out =
  `load benchmark: ${CLIENTS} clients, ${SECONDS} s of mixed traffic (after ${WARMUP_SECONDS} s ` +
  `unmeasured warm-up) against the compiled server (SQLite, durable commits), MCP 2026-07-28 over ` +
  `keep-alive HTTP; ${LEARNERS} shared learners, ${recallRounds} Verified Recall rounds\n` +
  `${"tool".padEnd(42)} ${"calls".padStart(7)}\n`;
for (const [label, values] of [...stats.latencies].sort(([a], [b]) => a.localeCompare(b)))
  out += line(label, values, stats.codes.get(label));
out += line("all calls", [...stats.latencies.values()].flat());
out +=
  `throughput ${mixed.perSecond.toFixed(0)} calls/s` +
  (serverCpuMs === undefined ? "" : `, server CPU ${serverCpuMs.toFixed(3)} ms/call`) +
  `\necho baseline (bare SDK v2, warm, mean of ${ECHO_SECONDS} s before and after): ` +
  `${echoPerSecond.toFixed(0)} calls/s, p50 ${echoP50.toFixed(2)} ms, p99 ${echoP99.toFixed(2)} ms\n` +
  `ratio mixed/echo: throughput ${(mixed.perSecond / echoPerSecond).toFixed(2)}x, p50 ` +
  `${(mixed.p50 / echoP50).toFixed(2)}x, p99 ${(mixed.p99 / echoP99).toFixed(2)}x\n` +
  `HTTP 5xx: ${stats.http5xx}; transport errors: ${stats.transportErrors}; JSON-RPC errors: ` +
  `${stats.rpcErrors}; INTERNAL_ERROR: ${stats.internalErrors}; lost writes: ${lost.length} of ` +
  `${receipts.size} receipts and ${learners.length} learner versions checked in the database\n`;
process.stdout.write(out);
for (const l of lost) process.stdout.write(`  lost: ${l}\n`);
if (
  stats.http5xx ||
  stats.transportErrors ||
  stats.rpcErrors ||
  stats.internalErrors ||
  lost.length
)
  process.exitCode = 1;

/**
 * Runtime speed (issues #3, #4, #12, #15, #25). Every server runs in its own process, so the load
 * generator does not share its event loop; CLIENTS concurrent callers send authenticated MCP
 * 2026-07-28 tool calls over keep-alive HTTP (RawMcpCaller: the SDK client's wire format without
 * its client-side cost, each learner's own bearer token, as a host sends it). Scenarios:
 *  - peer: an echo tool served exactly as the SDK v2 documentation shows a stateless Streamable HTTP
 *    server (peer-echo-server.ts, never tuned): what a user of the SDK would build, and the
 *    baseline of every target,
 *  - echo: a bare SDK v2 echo tool mounted like the coach endpoint (our mount, host guard, router):
 *    the SDK path every coach call pays,
 *  - echo+auth: the same echo behind the coach's OAuth gate (token verification, memo): what
 *    authentication adds to a call,
 *  - context / complete: get_skillpilot_learning_context and complete_skillpilot_goal (a durable
 *    commit) on the real server (compiled CLI, SQLite),
 *  - recall: the Verified Recall round (start → answers → record: three calls, two commits), each
 *    round on its own seeded learner whose recall is due and who has made one call before (their
 *    token verified, their session read: a round comes up in a conversation, see touchSessions),
 *  - floor: the same round against the same server code whose three recall handlers replay their
 *    first output (floor-server.ts): round − floor is what the domain work costs,
 *  - direct / adapted: on a server whose contract also carries a superseded tool served through an
 *    adapter (adapter-server.ts), the context read by its current name and by the old name:
 *    adapted − direct is what an adapter costs a call; that server has definition tags on
 *    (experimental), and direct+tag reads the context sending the current tag in knownTags:
 *    direct+tag − direct is what tags cost a call; honoured reads it echoing the tag of a release
 *    whose context tool changed incompatibly under its own name since, served through its
 *    held-definition adapter: honoured − direct is what serving a held definition costs a call,
 *  - context@claude, context@mcp: the context read on the coach server's Claude lane
 *    (/claude/mcp) and standard-client lane (/standard/mcp), each with its own resource, tokens and
 *    sessions, auth at connect, MCP Apps metadata: lane routing should cost nothing measurable
 *    against the openai lane's context read,
 *  - context+otel / context@untraced: the context read with OpenTelemetry spans exported over OTLP,
 *    and on a twin started alike without them (tracing-column.ts),
 *  - context@gemini / context@jwt: the context read on the Gemini lane (opaque tokens verified by
 *    token introspection, answers remembered) and on the Claude lane (JWTs) of one server
 *    (gemini-column.ts): an introspected call may cost at most 0.1 of a peer call more,
 *  - context@base / complete@base: when BENCH_BASELINE_ROOT names a built checkout of the code
 *    before a change, the same two calls on that code, interleaved with context@today /
 *    complete@today on a server of today's code started alike (baseline-column.ts): today's
 *    server CPU per call within 5% of the base's,
 *  - pg1 / pg2 (when PostgreSQL is installed): context, complete and recall on one, then two
 *    instances sharing one PostgreSQL database (postgres-column.ts), context and complete on a
 *    SQLite twin started exactly like an instance (sq1: the denominator of the PostgreSQL
 *    ratios), the round trips to the database per call, counted (postgres-round-trips.ts), and
 *    the database server's own CPU per call (all its processes, from /proc), printed beside the
 *    instances' and never added to it.
 * Every server is warmed up first (BENCH_WARM_SECONDS per scenario, unmeasured); then all
 * scenarios run in BENCH_ROUNDS interleaved rounds of BENCH_SLICE_SECONDS slices (interleave.ts),
 * so each ratio compares figures measured side by side; each slice starts on a quiet machine and
 * its CPU is read once the work its calls left behind is done (machine-quiet.ts); scenarios
 * compared with each other (a `group`) take their slices together in short alternating parts
 * (paired-slices.ts), so a stretch of the host's slowness reaches both. That is one run;
 * `--repeat N` makes N runs on the same servers and prints each ratio's median and range over
 * them: a target is met when the median of at least three runs meets it (ratio-summary.ts), since
 * one run's ratios move by up to ±30% on a shared machine. The recall scenarios' due learners are minted as the run goes, between
 * slices (recall-pool.ts), so a fast server never runs out of them. Server CPU per call (from /proc, all
 * threads of all instances of a scenario) is the cost figure the targets are set in: other load on
 * a shared machine barely moves it; throughput ratios are printed beside it.
 * Targets, server CPU per call against the peer echo: context ≤ 1.0, complete ≤ 1.1, a Verified
 * Recall round ≤ 3.5 peer calls, an adapted call ≤ 0.15 more than the direct one, a current tag
 * ≤ 0.05 more than none, a held definition honoured ≤ 0.15 more than the direct call, an introspected call ≤ 0.1 more than a JWT call; PostgreSQL against
 * SQLite, server CPU: complete ≤ 1.3 ×, context and recall ≤ 1.2 ×; with a baseline, context and
 * complete ≤ 1.05 × the base's.
 * Run: npm run bench:runtime -- --repeat 3   (BENCH_BASELINE_ROOT, BENCH_CLIENTS, BENCH_ROUNDS, BENCH_SLICE_SECONDS,
 * BENCH_WARM_SECONDS, BENCH_RECALL_POOL, BENCH_REPEAT; BENCH_POSTGRES=0 leaves the PostgreSQL
 * column out) */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BaselineColumn, baselineColumn } from "./baseline-column.js";
import { benchTokens } from "./bench-tokens.js";
import { geminiColumn } from "./gemini-column.js";
import { currentTag } from "./current-tag.js";
import { activeLearners, completeCalls, contextCalls } from "./coach-learners.js";
import { interleave, type Scenario, warmUp } from "./interleave.js";
import { type Call, type Measurement, type Result, summarize } from "./load-driver.js";
import { type PostgresColumn, postgresColumn } from "./postgres-column.js";
import { type Ratio, summarizeRatios, VERDICT_RUNS } from "./ratio-summary.js";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { seededRecallPool } from "./recall-pool.js";
import {
  BENCH_MCP_URL,
  BENCH_PUBLIC_ENV,
  BENCH_PUBLIC_URL,
  openRecallSeeder,
  recallRounds,
  seedRecallLearners,
} from "./recall-round.js";
import { quietWaits } from "./machine-quiet.js";
import { repeatOption } from "./repeat-option.js";
import {
  printPostgresLine,
  printRatios,
  printScenarioTable,
  runtimeRatios,
} from "./runtime-report.js";
import { startProcess, stopProcess } from "./server-process.js";
import { tracingColumn } from "./tracing-column.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const REPEAT = repeatOption(
  process.argv.slice(2),
  process.env.BENCH_REPEAT,
  process.env.npm_config_repeat,
);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 1.5);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 3);
/**
 * Due learners per client seeded for the Verified Recall rounds before the first warm-up (each
 * round uses one up; more are minted between slices as the measured rate requires).
 */
const RECALL_POOL = Number(process.env.BENCH_RECALL_POOL ?? 800);
const WITH_POSTGRES = process.env.BENCH_POSTGRES !== "0";

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-"));
const floorDir = path.join(dir, "floor");
const echoAuthDir = path.join(dir, "echo-auth");
const adapterDir = path.join(dir, "adapter");
// Opened before the servers start (it migrates the data directory); it seeds learners with a due
// recall item, one per Verified Recall round, outside the measured time.
const recallSeeder = await openRecallSeeder(root, dir);
const [floorSession] = await seedRecallLearners(root, floorDir, 1);
const node = (script: string, ...args: string[]) => [
  "--import",
  "tsx",
  path.join(root, "bench/runtime", script),
  ...args,
];
const publicUrl = { ...BENCH_PUBLIC_ENV };
const started = await Promise.all([
  startProcess(root, node("peer-echo-server.ts")),
  startProcess(root, node("echo-server.ts")),
  startProcess(root, node("echo-server.ts", "--auth", echoAuthDir)),
  startProcess(
    root,
    [path.join(root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", dir],
    { SKILLPILOT_LOG: path.join(dir, "calls.log"), ...publicUrl },
  ),
  startProcess(root, node("floor-server.ts", floorDir), publicUrl),
  startProcess(root, node("adapter-server.ts", adapterDir), {
    ...publicUrl,
    SKILLPILOT_DEFINITION_TAGS: "1",
  }),
]);
const [peerServer, echoServer, echoAuthServer, coachServer, floorServer, adapterServer] = started;
const adapterTokens = await benchTokens(adapterDir, BENCH_MCP_URL);
const coachTokens = await benchTokens(dir, BENCH_MCP_URL);
// The Claude lane of the same server: its own resource, so its own tokens for the same learners.
const claudeTokens = await benchTokens(dir, `${BENCH_PUBLIC_URL}/claude/mcp`);
const mcpLaneTokens = await benchTokens(dir, `${BENCH_PUBLIC_URL}/standard/mcp`);
const floorTokens = await benchTokens(floorDir, BENCH_MCP_URL);
const echoTokens = await benchTokens(echoAuthDir, BENCH_MCP_URL);
const echoToken = await echoTokens.token("echo-learner");
const callers = {
  peer: new RawMcpCaller(peerServer.url, CLIENTS),
  echo: new RawMcpCaller(echoServer.url, CLIENTS),
  echoAuth: new RawMcpCaller(echoAuthServer.url, CLIENTS, () => echoToken),
  coach: new RawMcpCaller(coachServer.url, CLIENTS, coachTokens.tokenFor),
  claude: new RawMcpCaller(
    coachServer.url.replace(/\/mcp$/, "/claude/mcp"),
    CLIENTS,
    claudeTokens.tokenFor,
  ),
  mcpLane: new RawMcpCaller(
    coachServer.url.replace(/\/mcp$/, "/standard/mcp"),
    CLIENTS,
    mcpLaneTokens.tokenFor,
  ),
  floor: new RawMcpCaller(floorServer.url, CLIENTS, floorTokens.tokenFor),
  adapter: new RawMcpCaller(adapterServer.url, CLIENTS, adapterTokens.tokenFor),
};
let postgres: PostgresColumn | undefined;
let tracing: Awaited<ReturnType<typeof tracingColumn>> | undefined;
let gemini: Awaited<ReturnType<typeof geminiColumn>> | undefined;
let baseline: BaselineColumn | undefined;

try {
  await Promise.all([coachTokens.refresh(), floorTokens.refresh(), adapterTokens.refresh()]);
  postgres = WITH_POSTGRES
    ? await postgresColumn(root, CLIENTS, Math.ceil(RECALL_POOL / 2))
    : undefined;
  const pid = (s: { child: { pid?: number } }) => [s.child.pid];
  const echoCalls = (caller: RawMcpCaller): Call[] =>
    Array.from(
      { length: CLIENTS },
      () => async () => !(await caller.call("echo", { text: "hi" })).isError,
    );
  const learners = await activeLearners(
    new URL(coachServer.url).origin,
    callers.coach,
    Array.from({ length: CLIENTS }, (_, i) => `bench-${i}`),
    coachTokens.bind,
  );
  // Learners of their own on the Claude lane (sessions are per lane, the store is one), in the
  // same state as the openai lane's, so the two context slices read alike.
  const claudeLearners = await activeLearners(
    new URL(coachServer.url).origin,
    callers.claude,
    Array.from({ length: CLIENTS }, (_, i) => `bench-claude-${i}`),
    claudeTokens.bind,
    "claude",
  );
  const mcpLaneLearners = await activeLearners(
    new URL(coachServer.url).origin,
    callers.mcpLane,
    Array.from({ length: CLIENTS }, (_, i) => `bench-mcp-${i}`),
    mcpLaneTokens.bind,
    "mcp",
  );
  const adapterLearners = await activeLearners(
    new URL(adapterServer.url).origin,
    callers.adapter,
    Array.from({ length: CLIENTS }, (_, i) => `bench-adapter-${i}`),
    adapterTokens.bind,
  );
  const readAs = (tool: string, meta?: Record<string, unknown>) =>
    adapterLearners.map(
      (s) => async () =>
        !(await callers.adapter.call(tool, { learningSessionId: s.id }, meta)).isError,
    );
  const heldTag = {
    "io.modelcontextprotocol/knownTags": {
      "tools/list": await currentTag(adapterServer.url),
    },
  };
  // A host holding release 1.0.0, whose context tool changed incompatibly under its own name since.
  const releaseTag = {
    "io.modelcontextprotocol/knownTags": {
      "tools/list": /held definition tag (\S+)/.exec(adapterServer.stdout)![1],
    },
  };
  const recallPool = seededRecallPool(
    recallSeeder,
    coachTokens.bind,
    [callers.coach],
    CLIENTS,
    RECALL_POOL,
  );
  tracing = await tracingColumn(root, dir, CLIENTS);
  gemini = await geminiColumn(root, dir, CLIENTS);
  baseline = await baselineColumn(root, dir, CLIENTS);
  // The floor server replays each handler's first output: one round alone records them.
  if (!(await recallRounds(callers.floor, () => floorSession)()))
    throw new Error("the floor server's first round failed");
  const scenarios: Scenario[] = [
    { name: "peer", calls: echoCalls(callers.peer), pids: pid(peerServer) },
    { name: "echo", calls: echoCalls(callers.echo), pids: pid(echoServer), group: "echo" },
    {
      name: "echo+auth",
      calls: echoCalls(callers.echoAuth),
      pids: pid(echoAuthServer),
      group: "echo",
    },
    { name: "context", calls: contextCalls([callers.coach], learners), pids: pid(coachServer) },
    {
      name: "context@claude",
      calls: contextCalls([callers.claude], claudeLearners),
      pids: pid(coachServer),
    },
    {
      name: "context@mcp",
      calls: contextCalls([callers.mcpLane], mcpLaneLearners),
      pids: pid(coachServer),
    },
    { name: "complete", calls: completeCalls([callers.coach], learners), pids: pid(coachServer) },
    {
      name: "recall",
      calls: Array.from({ length: CLIENTS }, (_, i) =>
        recallRounds(callers.coach, recallPool.next(i)),
      ),
      pids: pid(coachServer),
      prepare: (seconds) => recallPool.prepare(seconds),
    },
    {
      name: "floor",
      calls: Array.from({ length: CLIENTS }, () => recallRounds(callers.floor, () => floorSession)),
      pids: pid(floorServer),
    },
    {
      name: "direct",
      group: "adapter",
      calls: readAs("get_skillpilot_learning_context"),
      pids: pid(adapterServer),
    },
    {
      name: "adapted",
      group: "adapter",
      calls: readAs("get_skillpilot_learning_context_v0"),
      pids: pid(adapterServer),
    },
    {
      name: "direct+tag",
      group: "adapter",
      calls: readAs("get_skillpilot_learning_context", heldTag),
      pids: pid(adapterServer),
    },
    {
      name: "honoured",
      group: "adapter",
      calls: readAs("get_skillpilot_learning_context", releaseTag),
      pids: pid(adapterServer),
    },
    ...tracing.scenarios,
    ...gemini.scenarios,
    ...(baseline?.scenarios ?? []),
    ...(postgres ? [...postgres.oneInstance, ...postgres.twin, ...postgres.twoInstances] : []),
  ];
  await warmUp(scenarios, WARM_SECONDS);
  const runs: Ratio[][] = [];
  const allSlices = new Map<string, Measurement[]>(scenarios.map((s) => [s.name, []]));
  for (let run = 1; run <= REPEAT; run++) {
    const slices = await interleave(scenarios, ROUNDS, SLICE_SECONDS);
    const results = summarizeAll(scenarios, slices);
    runs.push([
      ...runtimeRatios(results, slices),
      ...tracing.ratios(results),
      ...gemini.ratios(results),
      ...(baseline?.ratios(results) ?? []),
    ]);
    for (const [name, parts] of slices) allSlices.get(name)!.push(...parts);
    if (REPEAT > 1) process.stderr.write(`bench:runtime: run ${run} of ${REPEAT} measured\n`);
  }
  const results = summarizeAll(scenarios, allSlices);
  const out = (line = "") => process.stdout.write(`${line}\n`);
  out(
    `runtime benchmark: ${CLIENTS} concurrent callers (authenticated MCP 2026-07-28 over ` +
      `keep-alive HTTP); every server warmed ${WARM_SECONDS} s per scenario, then ${REPEAT} ` +
      `run${REPEAT === 1 ? "" : "s"} of ${ROUNDS} interleaved rounds of ${SLICE_SECONDS} s slices`,
  );
  printScenarioTable(results, out);
  out(
    REPEAT >= VERDICT_RUNS
      ? `ratios: median of ${REPEAT} runs (range); a target is met when the median meets it`
      : `ratios of ${REPEAT} run${REPEAT === 1 ? "" : "s"}: a verdict needs the median of at least ` +
          `${VERDICT_RUNS} runs (npm run bench:runtime -- --repeat ${VERDICT_RUNS})`,
  );
  printRatios(summarizeRatios(runs), out);
  out(await tracing.note());
  out(gemini.note());
  out(
    baseline
      ? `baseline: the code at ${baseline.root}, interleaved with today's`
      : "baseline column left out: set BENCH_BASELINE_ROOT to a built checkout of the code before",
  );
  out(
    `quiet machine: ${quietWaits.capped} of ${quietWaits.waits} waits before or after a slice ` +
      "gave up after 3 s (busy machine: the ratios are less certain)",
  );
  if (postgres) printPostgresLine(postgres.roundTrips, results, out);
  else out("PostgreSQL column left out (BENCH_POSTGRES=0 or PostgreSQL not installed)");
  const waited = [recallPool, ...(postgres?.recallPools ?? [])].reduce((n, p) => n + p.waited, 0);
  if (waited > 0)
    out(
      `note: ${waited} recall rounds waited for due learners to be minted inside a slice ` +
        "(their latency includes it; a larger BENCH_RECALL_POOL avoids it)",
    );
  if ([...results.values()].some((x) => x.errors > 0)) process.exitCode = 1;
} finally {
  await tracing?.close();
  await gemini?.close();
  await baseline?.close();
  for (const c of Object.values(callers)) c.close();
  await Promise.all(started.map((s) => stopProcess(s.child)));
  await postgres?.close();
  await recallSeeder.close();
  await rm(dir, { recursive: true, force: true });
}

/** Each scenario's result from its slices (recall and floor count rounds, not calls). */
function summarizeAll(
  scenarios: readonly Scenario[],
  slices: Map<string, Measurement[]>,
): Map<string, Result> {
  return new Map(
    scenarios.map((s) => [
      s.name,
      summarize(s.name, slices.get(s.name)!, /recall|floor/.test(s.name) ? "rounds" : undefined),
    ]),
  );
}

/**
 * `trace record` speed: what the recording proxy adds to a proxied call. The compiled coach server
 * and the compiled `skillpilot trace record` in front of it run as processes of their own; one
 * client reads the learning context (the coach's most frequent call) sequentially, directly and
 * through the proxy, in interleaved rounds of the same run, and the proxied call's wall time is
 * divided by the direct one's. Target: the proxy adds at most 10% (ratio <= 1.10, by the median of
 * the rounds). A bare pass-through proxy (bare-proxy.ts) in the same rounds shows what any HTTP hop
 * costs here, and so what recording adds beyond it; a TCP relay that copies bytes and parses nothing
 * (tcp-relay.ts) shows what any proxy process costs here at the least, whatever it is written in
 * Node. Run: npm run bench:trace (BENCH_PROXY_ROUNDS, BENCH_PROXY_CALLS).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchTokens } from "../runtime/bench-tokens.js";
import { activeLearners } from "../runtime/coach-learners.js";
import { RawMcpCaller } from "../runtime/raw-mcp-client.js";
import { formatRatio, summarizeRatios } from "../runtime/ratio-summary.js";
import { BENCH_MCP_URL, BENCH_PUBLIC_ENV } from "../runtime/recall-round.js";
import { processCpuMs, startProcess, stopProcess } from "../runtime/server-process.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 11);
const CALLS = Number(process.env.BENCH_PROXY_CALLS ?? 100);
const TARGET = 1.1;

/** Start a proxy process (`args` before `--upstream`) and wait for its banner's URL. */
function startProxy(args: string[], upstream: string) {
  const child = spawn(process.execPath, [...args, "--upstream", upstream], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise<{ child: typeof child; url: string }>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (c: Buffer) => {
      text += c.toString();
      const m = /recording proxy on (http:\/\/\S+)/.exec(text);
      if (m) resolve({ child, url: m[1] });
    });
    child.once("exit", (code) => reject(new Error(`trace record exited (${code}): ${text}`)));
  });
}

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-proxy-"));
const coach = await startProcess(
  root,
  [path.join(root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", dir],
  { SKILLPILOT_LOG: path.join(dir, "calls.log"), ...BENCH_PUBLIC_ENV },
);
const out = path.join(dir, "trace.jsonl");
const proxy = await startProxy(
  [path.join(root, "bin/skillpilot.js"), "trace", "record", "--port", "0", "--out", out],
  coach.url,
);
const bare = await startProxy(
  ["--import", "tsx", path.join(root, "bench/trace/bare-proxy.ts")],
  coach.url,
);
const relay = await startProxy(
  ["--import", "tsx", path.join(root, "bench/trace/tcp-relay.ts")],
  coach.url,
);
try {
  const tokens = await benchTokens(dir, BENCH_MCP_URL);
  const direct = new RawMcpCaller(coach.url, 1, tokens.tokenFor);
  const proxied = new RawMcpCaller(proxy.url, 1, tokens.tokenFor);
  const bared = new RawMcpCaller(bare.url, 1, tokens.tokenFor);
  const relayed = new RawMcpCaller(relay.url, 1, tokens.tokenFor);
  const [learner] = await activeLearners(
    new URL(coach.url).origin,
    direct,
    ["bench-proxy"],
    tokens.bind,
  );
  const read = (caller: RawMcpCaller) => async () => {
    const result = await caller.call("get_skillpilot_learning_context", {
      learningSessionId: learner.id,
    });
    if (result.isError) throw new Error(`bench call failed: ${JSON.stringify(result)}`);
  };
  /** Mean wall milliseconds of `n` sequential calls. */
  const slice = async (call: () => Promise<void>, n: number) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await call();
    return Number(process.hrtime.bigint() - start) / 1e6 / n;
  };
  const paths = {
    direct: read(direct),
    proxied: read(proxied),
    bare: read(bared),
    relay: read(relayed),
  };
  type Path = keyof typeof paths;
  const order: Path[] = ["direct", "proxied", "bare", "relay"];
  // Warm every path (JIT, connections, the redaction's first judgements), unmeasured.
  for (const p of order) await slice(paths[p], CALLS / 2);
  const rounds: Record<Path, number>[] = [];
  const proxyCpuBefore = processCpuMs(proxy.child.pid);
  for (let r = 0; r < ROUNDS; r++) {
    // Rotate the order and reverse it every other round, so drift on a shared machine reaches
    // every path alike.
    const rotated = order.map((_, i) => order[(i + r) % order.length]);
    const round = {} as Record<Path, number>;
    for (const p of r % 2 ? rotated.reverse() : rotated) round[p] = await slice(paths[p], CALLS);
    rounds.push(round);
  }
  const proxyCpu = (processCpuMs(proxy.child.pid) ?? Number.NaN) - (proxyCpuBefore ?? Number.NaN);
  const summaries = summarizeRatios(
    rounds.map((r) => [
      { label: "proxied / direct call", value: r.proxied / r.direct, target: TARGET },
      {
        label: "bare proxy / direct",
        value: r.bare / r.direct,
        goal: "none (what any HTTP hop costs here)",
      },
      {
        label: "proxied / bare proxy",
        value: r.proxied / r.bare,
        goal: "none (what recording adds)",
      },
      {
        label: "TCP relay / direct",
        value: r.relay / r.direct,
        goal: "none (the least any proxy process costs here)",
      },
    ]),
  );
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const mid = (f: (r: Record<Path, number>) => number) =>
    rounds.map(f).sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
  const traceMb = (await stat(out)).size / 1e6;
  process.stdout.write(
    `trace record: get_skillpilot_learning_context, 1 client, ${ROUNDS} interleaved rounds of ` +
      `${CALLS} sequential calls each way (compiled coach server and proxy, same run)\n` +
      `  direct ${ms(mid((r) => r.direct))} per call, through the proxy ` +
      `${ms(mid((r) => r.proxied))}, through a bare proxy ${ms(mid((r) => r.bare))}, through a ` +
      `TCP relay ${ms(mid((r) => r.relay))} (medians of ` +
      `the rounds); proxy CPU ` +
      `${ms(proxyCpu / (ROUNDS * CALLS))} per call; trace ${traceMb.toFixed(1)} MB\n` +
      summaries.map((s) => `  ${formatRatio(s, 22)}\n`).join(""),
  );
} finally {
  await stopProcess(proxy.child);
  await stopProcess(bare.child);
  await stopProcess(relay.child);
  await stopProcess(coach.child);
  await rm(dir, { recursive: true, force: true });
}

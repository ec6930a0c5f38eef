/**
 * Profiling driver for the Verified Recall round (not a benchmark: it prints no ratio). Seeds due
 * learners, starts the real server with extra Node options (default `--cpu-prof`, so a
 * `.cpuprofile` lands in PROFILE_DIR when the server exits), drives rounds from 8 callers for
 * BENCH_SECONDS and stops the server with SIGTERM.
 * Run: npx tsx bench/runtime/profile-round.ts [node options…]
 *   e.g. npx tsx bench/runtime/profile-round.ts --cpu-prof --cpu-prof-dir=/tmp/prof
 *   or   PROFILE_SERVER_STDOUT=/tmp/trace.txt npx tsx bench/runtime/profile-round.ts --trace-deopt
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { benchTokens } from "./bench-tokens.js";
import {
  BENCH_MCP_URL,
  BENCH_PUBLIC_ENV,
  fromPool,
  recallRounds,
  seedRecallLearners,
  touchSessions,
} from "./recall-round.js";
import { startProcess, stopProcess } from "./server-process.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const POOL = Number(process.env.BENCH_RECALL_POOL ?? 800);
const nodeOptions =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        "--cpu-prof",
        `--cpu-prof-dir=${process.env.PROFILE_DIR ?? path.join(tmpdir(), "skillpilot-prof")}`,
      ];

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-prof-"));
try {
  const pool = await seedRecallLearners(root, dir, CLIENTS * POOL);
  const { child, url } = await startProcess(
    root,
    [
      ...nodeOptions,
      path.join(root, "bin/skillpilot.js"),
      "start",
      "--port",
      "0",
      "--data-dir",
      dir,
    ],
    { SKILLPILOT_LOG: path.join(dir, "calls.log"), ...BENCH_PUBLIC_ENV },
  );
  const tokens = await benchTokens(dir, BENCH_MCP_URL);
  await tokens.refresh();
  // e.g. for --trace-deopt output: the server's stdout, copied to a file.
  if (process.env.PROFILE_SERVER_STDOUT)
    child.stdout!.pipe(createWriteStream(process.env.PROFILE_SERVER_STDOUT));
  const caller = new RawMcpCaller(url, CLIENTS, tokens.tokenFor);
  // As the benchmark does: every learner's token verified and session read before their round
  // (the profile's first seconds are these reads; the rounds are its last BENCH_SECONDS).
  await touchSessions([caller], pool, CLIENTS);
  let rounds = 0;
  let errors = 0;
  try {
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const round = recallRounds(caller, fromPool(pool.slice(i * POOL, (i + 1) * POOL)));
        while (performance.now() < end) {
          if (await round()) rounds++;
          else errors++;
        }
      }),
    );
  } finally {
    caller.close();
    await stopProcess(child);
  }
  process.stdout.write(
    `${rounds} rounds, ${errors} errors in ${SECONDS} s (server options: ` +
      `${nodeOptions.join(" ")})\n`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

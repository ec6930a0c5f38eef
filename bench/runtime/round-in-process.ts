/**
 * Diagnostic (not a benchmark: it prints no ratio): the CPU time of the Verified Recall round's
 * domain work alone — the dispatcher's `callTool` called in-process for start → answers → record,
 * no HTTP and no SDK — with 8 rounds in flight on a seeded SQLite file, as the server runs them.
 * Compare with the "domain work (round − floor)" line of `npm run bench:runtime` to see how much
 * more the same code costs inside the server.
 * Run: npx tsx bench/runtime/round-in-process.ts   (BENCH_ROUNDS, default 1500 per repetition)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolName } from "../../generated/handlers.gen.js";
import { closeServices, createServices } from "../../runtime/boot.js";
import { loadConfig } from "../../runtime/config/config.js";
import { callInProcess } from "./in-process-call.js";
import { median } from "./load-driver.js";
import { seedRecallLearners } from "./recall-round.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const IN_FLIGHT = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1500);
const REPETITIONS = 5;

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-round-"));
try {
  // One more repetition than measured: the first one warms the code up.
  const pool = await seedRecallLearners(root, dir, ROUNDS * (REPETITIONS + 1));
  const services = await createServices(
    await loadConfig(
      root,
      { dataDir: dir, port: 0, logDestination: path.join(dir, "calls.log") },
      {},
    ),
  );
  try {
    const call = <N extends ToolName>(name: N, args: Record<string, unknown>) =>
      callInProcess(services, name, args);
    let next = 0;
    const round = async () => {
      const learningSessionId = pool[next++];
      const started = await call("start_skillpilot_verified_recall", { learningSessionId });
      const revealed = await call("get_skillpilot_verified_recall_answers", {
        learningSessionId,
        batchCapability: started.batchCapability,
      });
      await call("record_skillpilot_verified_recall_results", {
        learningSessionId,
        gradingCapability: revealed.gradingCapability,
        assessments: started.batch.items.map(() => ({ passed: true })),
      });
    };
    const perRound: number[] = [];
    for (let repetition = 0; repetition <= REPETITIONS; repetition++) {
      const before = process.cpuUsage();
      let started = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (started < ROUNDS) {
            started++;
            await round();
          }
        }),
      );
      const used = process.cpuUsage(before);
      if (repetition > 0) perRound.push((used.user + used.system) / 1000 / ROUNDS);
    }
    process.stdout.write(
      `Verified Recall round in-process (callTool, ${IN_FLIGHT} in flight): CPU ` +
        `${median(perRound).toFixed(3)} ms per round (median of ${REPETITIONS} x ` +
        `${ROUNDS}; range ` +
        `${Math.min(...perRound).toFixed(3)}-${Math.max(...perRound).toFixed(3)})\n`,
    );
  } finally {
    await closeServices(services);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

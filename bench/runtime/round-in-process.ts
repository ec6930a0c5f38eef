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
import type { ToolName, ToolOutput } from "../../generated/handlers.gen.js";
import { closeServices, createServices } from "../../runtime/boot.js";
import { loadConfig } from "../../runtime/config/config.js";
import { servePrimary } from "../../runtime/served-contracts.js";
import { callTool } from "../../runtime/mcp/dispatch.js";
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
  const served = servePrimary(services);
  try {
    // Arguments travel as JSON, as they do from a client.
    const call = async <N extends ToolName>(
      name: N,
      args: Record<string, unknown>,
    ): Promise<ToolOutput<N>> => {
      // In process there is no HTTP gate: the caller is the learner the session belongs to.
      const session = await services.store.findSession(String(args.learningSessionId));
      const caller = {
        issuer: session?.subject?.issuer ?? "",
        subject: session?.subject?.sub ?? "",
        clientId: "in-process",
        scopes: services.auth.settings.scopesSupported,
        expiresAt: Number.MAX_SAFE_INTEGER,
      };
      const result = await callTool(services, served, name, JSON.parse(JSON.stringify(args)), {
        caller,
      });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as ToolOutput<N>;
    };
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

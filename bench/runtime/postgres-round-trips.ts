/**
 * Round trips to PostgreSQL per call (issue #25 item 3), counted rather than timed: the runtime's
 * own services in this process, on the benchmark's PostgreSQL database and configuration, call
 * `callTool` (the dispatcher, no HTTP) for context reads, goal completions and Verified Recall
 * rounds while the round trips of every `pg` connection are counted: a request sent while its
 * connection waits for no answer (statements pipelined behind an unanswered one share its round
 * trip; see round-trip-counter.ts). Sessions are read once before counting, as a serving instance
 * has them cached.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ToolName } from "../../generated/handlers.gen.js";
import { closeServices, createServices } from "../../runtime/boot.js";
import { loadConfig } from "../../runtime/config/config.js";
import { launchSession } from "../../runtime/domain/launch.js";
import type { RuntimeServices } from "../../runtime/services.js";
import { callInProcess } from "./in-process-call.js";
import { seedRecallLearners } from "./recall-round.js";
import { countRoundTrips as counted } from "../../test/runtime/support/round-trip-counter.js";

/** Round trips per call (per round for recall). */
export interface RoundTrips {
  context: number;
  complete: number;
  recall: number;
}

const CALLS = 20;

const call = (services: RuntimeServices, name: ToolName, args: Record<string, unknown>) =>
  callInProcess(services, name, args) as unknown as Promise<Record<string, unknown>>;

/**
 * Count round trips per context read, per goal completion and per recall round, with the
 * configuration file and environment the benchmark's PostgreSQL instances run with.
 */
export async function postgresRoundTrips(
  root: string,
  configFile: string,
  env: NodeJS.ProcessEnv,
): Promise<RoundTrips> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-round-trips-"));
  try {
    const due = await seedRecallLearners(root, dir, CALLS, {
      configFile,
      env,
      learnerPrefix: "pg-round-trips-recall-",
    });
    const services = await createServices(
      await loadConfig(
        root,
        { dataDir: dir, port: 0, configFile, logDestination: path.join(dir, "calls.log") },
        env,
      ),
    );
    try {
      const launched = await launchSession(services, { learner: "pg-round-trips", locale: "en" });
      if (launched.kind !== "minted") throw new Error("round trips: launch refused");
      const learningSessionId = launched.learningSessionId;
      const ctx = (await call(services, "get_skillpilot_learning_context", {
        learningSessionId,
      })) as { stateVersion: number; options: { payload: string }[] };
      let version = (
        (await call(services, "choose_skillpilot_option", {
          learningSessionId,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          option: ctx.options[0].payload,
        })) as { stateVersion: number }
      ).stateVersion;
      for (const id of due)
        await call(services, "get_skillpilot_learning_context", { learningSessionId: id });
      const context = await counted(async () => {
        for (let i = 0; i < CALLS; i++)
          await call(services, "get_skillpilot_learning_context", { learningSessionId });
      });
      const complete = await counted(async () => {
        for (let i = 0; i < CALLS; i++) {
          const done = (await call(services, "complete_skillpilot_goal", {
            learningSessionId,
            expectedStateVersion: version,
            clientRequestId: randomUUID(),
            decision: "needsMorePractice",
          })) as { receipt: { stateVersion: number } };
          version = done.receipt.stateVersion;
        }
      });
      const recall = await counted(async () => {
        for (const id of due) {
          const started = (await call(services, "start_skillpilot_verified_recall", {
            learningSessionId: id,
          })) as { batchCapability: string; batch: { items: unknown[] } };
          const revealed = (await call(services, "get_skillpilot_verified_recall_answers", {
            learningSessionId: id,
            batchCapability: started.batchCapability,
          })) as { gradingCapability: string };
          await call(services, "record_skillpilot_verified_recall_results", {
            learningSessionId: id,
            gradingCapability: revealed.gradingCapability,
            assessments: started.batch.items.map(() => ({ passed: true })),
          });
        }
      });
      return { context: context / CALLS, complete: complete / CALLS, recall: recall / CALLS };
    } finally {
      await closeServices(services);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The Verified Recall round of the runtime benchmark (issue #4): start → answers → record, three
 * MCP calls, two of them durable commits. A recorded round moves its items' due dates into the
 * future, so every round needs a learner whose recall is due: `seedRecallLearners` prepares a pool
 * of them in the data directory before the server starts (one mastered goal, mastered three days
 * ago, no goal active), through the same services the server uses.
 */
import path from "node:path";
import type { ToolName, ToolOutput } from "../../generated/handlers.gen.js";
import { closeServices, createServices } from "../../runtime/boot.js";
import { loadConfig } from "../../runtime/config/config.js";
import { launchSession } from "../../runtime/domain/launch.js";
import type { RawMcpCaller } from "./raw-mcp-client.js";

const DAY_MS = 86_400_000;

/**
 * The public URL every benchmarked coach server runs under (`SKILLPILOT_PUBLIC_URL`): with it the
 * development issuer's origin — which sessions are bound to and tokens name — does not depend on
 * the ephemeral port, so learners seeded before a server starts belong to its issuer.
 */
export const BENCH_PUBLIC_URL = "http://coach.bench.test";
/** The MCP URL tokens for a benchmarked server name (their audience). */
export const BENCH_MCP_URL = `${BENCH_PUBLIC_URL}/mcp`;

/**
 * Create `count` sessions, each with one recall item that is due now; returns their session ids.
 */
export async function seedRecallLearners(
  root: string,
  dataDir: string,
  count: number,
): Promise<string[]> {
  const config = await loadConfig(
    root,
    {
      dataDir,
      port: 0,
      publicUrl: BENCH_PUBLIC_URL,
      logDestination: path.join(dataDir, "seed.log"),
    },
    {},
  );
  const services = await createServices(config);
  try {
    const ids = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const launched = await launchSession(services, {
          learner: `recall-bench-${i}`,
          locale: "en",
        });
        if (launched.kind !== "minted") throw new Error(`bench launch refused: ${launched.kind}`);
        return launched.learningSessionId;
      }),
    );
    const now = new Date();
    const masteredAt = new Date(now.getTime() - 3 * DAY_MS).toISOString();
    await services.store.write(async (tx) => {
      for (const id of ids) {
        const { learnerId } = (await tx.findSession(id))!;
        await tx.saveProgress(
          learnerId,
          { goalId: "git-basics.repository", status: "mastered", attempts: 1, masteredAt },
          masteredAt,
        );
        await tx.saveState(
          learnerId,
          { activeGoalId: null, focusSkillId: "git-basics" },
          1,
          now.toISOString(),
        );
      }
    });
    return ids;
  } finally {
    await closeServices(services);
  }
}

type Result<N extends ToolName> = { isError?: boolean; structuredContent?: ToolOutput<N> };

/** Each seeded session once, in order; throws when the pool is used up. */
export function fromPool(pool: string[]): () => string {
  let next = 0;
  return () => {
    const id = pool[next++];
    if (!id) throw new Error("the seeded recall pool is used up: raise BENCH_RECALL_POOL");
    return id;
  };
}

/**
 * One client's rounds: each takes the next session and runs the three calls a chat client makes,
 * all passed. Resolves false when a call fails.
 */
export function recallRounds(
  caller: RawMcpCaller,
  nextSession: () => string,
): () => Promise<boolean> {
  const call = <N extends ToolName>(name: N, args: Record<string, unknown>) =>
    caller.call(name, args) as Promise<Result<N>>;
  return async () => {
    const learningSessionId = nextSession();
    const started = await call("start_skillpilot_verified_recall", { learningSessionId });
    if (started.isError) return false;
    const revealed = await call("get_skillpilot_verified_recall_answers", {
      learningSessionId,
      batchCapability: started.structuredContent!.batchCapability,
    });
    if (revealed.isError) return false;
    const recorded = await call("record_skillpilot_verified_recall_results", {
      learningSessionId,
      gradingCapability: revealed.structuredContent!.gradingCapability,
      assessments: started.structuredContent!.batch.items.map(() => ({ passed: true })),
    });
    return !recorded.isError;
  };
}

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
 * The environment of a benchmarked coach server: `BENCH_PUBLIC_URL`, which is not loopback, as a
 * development tunnel's (the development issuer signs the tokens).
 */
export const BENCH_PUBLIC_ENV = {
  SKILLPILOT_PUBLIC_URL: BENCH_PUBLIC_URL,
  SKILLPILOT_DEVELOPMENT_TUNNEL: "1",
} as const;

/** Where seeded learners go: by default a benchmark's SQLite data directory. */
export interface SeedOptions {
  /** A configuration file (e.g. one naming a PostgreSQL deployment's issuer and public URL). */
  configFile?: string;
  /** The environment to configure from (e.g. DATABASE_URL and the keys it needs). */
  env?: NodeJS.ProcessEnv;
  /** Learner names are this prefix and the index (`recall-bench-0`, …). */
  learnerPrefix?: string;
}

/** A seeded learner: their session and the learner name their token is minted for. */
export interface SeededLearner {
  sessionId: string;
  learner: string;
}

/**
 * Open the data directory (or the configured database) through the same services the server uses
 * and keep it open: `seed(count)` creates `count` sessions, each with one recall item that is due
 * now, for the learners `${learnerPrefix}${n}`, n counting on from call to call (so a benchmark can
 * mint more while it runs, between its measured slices). SQLite waits on the server's write lock.
 */
export async function openRecallSeeder(
  root: string,
  dataDir: string,
  { configFile, env = {}, learnerPrefix = "recall-bench-" }: SeedOptions = {},
) {
  const config = await loadConfig(
    root,
    {
      dataDir,
      port: 0,
      // A configuration file names its own public URL.
      publicUrl: configFile ? undefined : BENCH_PUBLIC_URL,
      developmentTunnel: configFile ? undefined : true,
      configFile,
      logDestination: path.join(dataDir, "seed.log"),
    },
    env,
  );
  const services = await createServices(config);
  let seeded = 0;
  const launch = async (learner: string): Promise<SeededLearner> => {
    const launched = await launchSession(services, { learner, locale: "en" });
    if (launched.kind !== "minted")
      throw new Error(`bench launch refused: ${JSON.stringify(launched)}`);
    return { sessionId: launched.learningSessionId, learner };
  };
  return {
    async seed(count: number): Promise<SeededLearner[]> {
      // Names are taken before the first await, so seeds running at once never share one.
      const first = seeded;
      seeded += count;
      // In batches: thousands of launches at once would open thousands of files at once.
      const learners: SeededLearner[] = [];
      for (let from = 0; from < count; from += 200) {
        const batch = Array.from({ length: Math.min(200, count - from) }, (_, k) => from + k);
        learners.push(
          ...(await Promise.all(batch.map((k) => launch(`${learnerPrefix}${first + k}`)))),
        );
      }
      const now = new Date();
      const masteredAt = new Date(now.getTime() - 3 * DAY_MS).toISOString();
      await services.store.write(async (tx) => {
        for (const { sessionId } of learners) {
          const { learnerId } = (await tx.findSession(sessionId))!;
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
      return learners;
    },
    close: () => closeServices(services),
  };
}

/** An open seeder of due learners (`openRecallSeeder`). */
export type RecallSeeder = Awaited<ReturnType<typeof openRecallSeeder>>;

/**
 * Create `count` sessions, each with one recall item that is due now; returns their session ids
 * (the i-th belongs to learner `${learnerPrefix}${i}`).
 */
export async function seedRecallLearners(
  root: string,
  dataDir: string,
  count: number,
  options: SeedOptions = {},
): Promise<string[]> {
  const seeder = await openRecallSeeder(root, dataDir, options);
  try {
    return (await seeder.seed(count)).map((s) => s.sessionId);
  } finally {
    await seeder.close();
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
 * Make one call on every seeded session (a context read, `clients` at a time): a learner reaches a
 * recall round in a conversation, so their token has been verified and their session read before;
 * without this every round would pay a first token verification the floor never pays.
 */
export async function touchSessions(
  callers: readonly RawMcpCaller[],
  sessions: readonly string[],
  clients: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      for (let id = sessions[next++]; id !== undefined; id = sessions[next++]) {
        const r = await callers[i % callers.length].call("get_skillpilot_learning_context", {
          learningSessionId: id,
        });
        if (r.isError) throw new Error(`bench context read failed: ${JSON.stringify(r)}`);
      }
    }),
  );
}

/**
 * One client's rounds: each takes the next session and runs the three calls a chat client makes,
 * all passed. Resolves false when a call fails.
 */
export function recallRounds(
  caller: RawMcpCaller,
  nextSession: () => string | Promise<string>,
): () => Promise<boolean> {
  const call = <N extends ToolName>(name: N, args: Record<string, unknown>) =>
    caller.call(name, args) as Promise<Result<N>>;
  return async () => {
    const learningSessionId = await nextSession();
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

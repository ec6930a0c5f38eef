/**
 * The PostgreSQL column of the runtime benchmark (issue #15 item 4): a throwaway PostgreSQL server
 * and two `skillpilot start` processes (the compiled CLI) on its database, behind one public URL
 * with one issuer (test/runtime/support/server-cluster.ts). The same context, completion and
 * Verified Recall scenarios as on SQLite, first all on one instance, then with the clients spread
 * over both (client i on instance i % 2, as a balancer without stickiness would). The round trips
 * per call are counted once, in this process, on the same database (postgres-round-trips.ts).
 * Beside them, a SQLite twin: one more `skillpilot start` started exactly like an instance (same
 * compiled CLI, configuration, issuer, keys and public URL) but on its own SQLite file, so the
 * PostgreSQL ratios compare servers that differ by their store alone.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startCluster } from "../../test/runtime/support/server-cluster.js";
import { startThrowawayPostgres } from "../../test/runtime/support/throwaway-postgres.js";
import { startServerProcess, useNodeOptions } from "../../test/support/server-process.js";
import { tokenBook } from "./bench-tokens.js";
import { activeLearners, completeCalls, contextCalls } from "./coach-learners.js";
import type { Scenario } from "./interleave.js";
import { postgresRoundTrips, type RoundTrips } from "./postgres-round-trips.js";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { type RecallPool, seededRecallPool } from "./recall-pool.js";
import { openRecallSeeder, type RecallSeeder, recallRounds } from "./recall-round.js";
import { processTreeCpuMs, STEADY_STATE_V8_FLAGS } from "./server-process.js";

/** The PostgreSQL scenarios and how to stop what they run on. */
export interface PostgresColumn {
  oneInstance: Scenario[];
  twoInstances: Scenario[];
  /** Context and completion on the SQLite twin, started like one PostgreSQL instance. */
  twin: Scenario[];
  /** Round trips to the database per context read, goal completion and recall round. */
  roundTrips: RoundTrips;
  /** The recall scenarios' pools of due learners (minted as the run goes). */
  recallPools: RecallPool[];
  close(): Promise<void>;
}

/**
 * Start PostgreSQL and two instances, and prepare `clients` learners per scenario (the recall
 * scenarios start with `recallPool` due learners per client and mint more as they go); undefined
 * when PostgreSQL is not installed (the column is left out).
 */
export async function postgresColumn(
  root: string,
  clients: number,
  recallPool: number,
): Promise<PostgresColumn | undefined> {
  const pg = await startThrowawayPostgres();
  if (!pg) return undefined;
  // The instances and the twin run like every other benchmarked server.
  useNodeOptions(STEADY_STATE_V8_FLAGS);
  const cluster = await startCluster(pg.url, 2).catch(async (error) => {
    await pg.stop();
    throw error;
  });
  const seedDir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-pg-"));
  const book = tokenBook((learner) => cluster.token(learner));
  const callers = cluster.urls.map((url) => new RawMcpCaller(url, clients, book.tokenFor));
  let seeder: RecallSeeder | undefined;
  const twin = await startServerProcess(
    ["--data-dir", path.join(seedDir, "sqlite-twin"), "--config", cluster.configFile],
    { ...cluster.env, DATABASE_URL: "", SKILLPILOT_LOG: path.join(seedDir, "sqlite-twin.log") },
  ).catch(async (error) => {
    await cluster.close();
    await pg.stop();
    throw error;
  });
  const twinCaller = new RawMcpCaller(twin.mcpUrl, clients, book.tokenFor);
  const close = async () => {
    twinCaller.close();
    await twin.stop();
    for (const c of callers) c.close();
    await seeder?.close();
    await cluster.close();
    await pg.stop();
    await rm(seedDir, { recursive: true, force: true });
  };
  try {
    const pids = cluster.instances.map((p) => p.child.pid);
    // The database server's own CPU, measured beside the instances' (never added to theirs).
    const postmaster = pg.pid();
    const databaseCpu = () => (postmaster ? processTreeCpuMs(postmaster) : undefined);
    const origin = cluster.instances[0].origin;
    const names = (prefix: string) => Array.from({ length: clients }, (_, i) => `${prefix}${i}`);
    const one = await activeLearners(origin, callers[0], names("pg-one-"), book.bind);
    const two = await activeLearners(origin, callers[0], names("pg-two-"), book.bind);
    const onTwin = await activeLearners(twin.origin, twinCaller, names("sq-twin-"), book.bind);
    // Seeded through the same configuration, on the same database, outside the measured time.
    const seeds = await openRecallSeeder(root, seedDir, {
      configFile: cluster.configFile,
      env: { ...cluster.env },
      learnerPrefix: "pg-recall-",
    });
    seeder = seeds;
    const roundTrips = await postgresRoundTrips(root, cluster.configFile, { ...cluster.env });
    const pool = (on: RawMcpCaller[]) =>
      seededRecallPool(seeds, book.bind, on, clients, recallPool);
    const [onOne, onTwo] = [pool(callers.slice(0, 1)), pool(callers)];
    const rounds = (from: RecallPool, on: (i: number) => RawMcpCaller) =>
      Array.from({ length: clients }, (_, i) => recallRounds(on(i), from.next(i)));
    return {
      oneInstance: [
        {
          name: "pg1 context",
          calls: contextCalls(callers.slice(0, 1), one),
          pids: [pids[0]],
          databaseCpu,
          group: "postgres context",
        },
        {
          name: "pg1 complete",
          calls: completeCalls(callers.slice(0, 1), one),
          pids: [pids[0]],
          databaseCpu,
          group: "postgres complete",
        },
        {
          name: "pg1 recall",
          calls: rounds(onOne, () => callers[0]),
          pids: [pids[0]],
          databaseCpu,
          prepare: (seconds) => onOne.prepare(seconds),
        },
      ],
      twin: [
        {
          name: "sq1 context",
          calls: contextCalls([twinCaller], onTwin),
          pids: [twin.child.pid],
          group: "postgres context",
        },
        {
          name: "sq1 complete",
          calls: completeCalls([twinCaller], onTwin),
          pids: [twin.child.pid],
          group: "postgres complete",
        },
      ],
      twoInstances: [
        { name: "pg2 context", calls: contextCalls(callers, two), pids, databaseCpu },
        { name: "pg2 complete", calls: completeCalls(callers, two), pids, databaseCpu },
        {
          name: "pg2 recall",
          calls: rounds(onTwo, (i) => callers[i % 2]),
          pids,
          databaseCpu,
          prepare: (seconds) => onTwo.prepare(seconds),
        },
      ],
      roundTrips,
      recallPools: [onOne, onTwo],
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

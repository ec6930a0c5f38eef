import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { generateKeyringConfig } from "../../../runtime/capability/index.js";
import { type ServerProcess, startServerProcess } from "../../support/server-process.js";
import type { WireObject } from "../../support/wire.js";

/**
 * Several `skillpilot start` processes (the compiled CLI) on one PostgreSQL database, as a
 * scaled-out deployment runs them: each with its own port, data directory and log file, all with
 * the same keys from the environment (required with DATABASE_URL, see runtime/secrets.ts).
 */
export interface ServerCluster {
  readonly instances: readonly ServerProcess[];
  /** The MCP URL of each instance. */
  readonly urls: readonly string[];
  /** A connection to the shared database, for assertions and seeding. */
  readonly db: Knex;
  /** The environment every instance got (keys included); for starting another one. */
  readonly env: Readonly<NodeJS.ProcessEnv>;
  /** POST /api/sessions on instance `instance`; returns the session id. */
  launch(learner: string, instance?: number): Promise<string>;
  /** Internal learner row id of a session (assertions on the database only). */
  learnerId(sid: string): Promise<number>;
  /** Every row a write could touch for this learner, for "zero mutation" assertions (C14). */
  rows(sid: string): Promise<WireObject>;
  close(): Promise<void>;
}

/** Start `count` instances at once (their migrations race, as in a rolling deploy). */
export async function startCluster(databaseUrl: string, count = 2): Promise<ServerCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-cluster-"));
  const env = {
    DATABASE_URL: databaseUrl,
    SKILLPILOT_LOG_HMAC_KEY: randomBytes(32).toString("base64url"),
    SKILLPILOT_CAPABILITY_KEYS: JSON.stringify(generateKeyringConfig("k1")),
  };
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      startServerProcess(["--data-dir", path.join(dir, `node-${i}`)], {
        ...env,
        SKILLPILOT_LOG: path.join(dir, `node-${i}.log`),
      }),
    ),
  );
  const instances = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await Promise.all(instances.map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true });
    throw failed.reason;
  }
  const db = knexFactory({ client: "pg", connection: databaseUrl, pool: { min: 0, max: 4 } });
  const learnerId = async (sid: string) =>
    (await db("sessions").where({ session_id: sid }).first()).learner_id as number;
  return {
    instances,
    urls: instances.map((p) => p.mcpUrl),
    db,
    env,
    async launch(learner, instance = 0) {
      const res = await fetch(`${instances[instance].origin}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ learner, locale: "en" }),
      });
      const body = (await res.json()) as { learningSessionId?: string };
      if (res.status !== 201 || !body.learningSessionId)
        throw new Error(`launch failed: ${res.status} ${JSON.stringify(body)}`);
      return body.learningSessionId;
    },
    learnerId,
    async rows(sid) {
      const learner_id = await learnerId(sid);
      return {
        state: await db("learner_state").where({ learner_id }).first(),
        progress: await db("progress").where({ learner_id }).orderBy("goal_id"),
        receipts: await db("receipts").where({ learner_id }).orderBy("receipt_id"),
        keys: await db("idempotency_records")
          .where({ session_id: sid })
          .orderBy("client_request_id"),
        spent: await db("spent_capabilities").orderBy("jti"),
      };
    },
    async close() {
      const codes = await Promise.all(instances.map((p) => p.stop()));
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
      const unclean = codes.findIndex((code) => code !== 0);
      if (unclean !== -1)
        throw new Error(
          `instance ${unclean} stopped with ${codes[unclean]}:\n${instances[unclean].output()}`,
        );
    },
  };
}

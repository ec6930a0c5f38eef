import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { contractScopes } from "../../../generated/tools.gen.js";
import { generateKeyringConfig } from "../../../runtime/capability/index.js";
import { type ServerProcess, startServerProcess } from "../../support/server-process.js";
import type { WireObject } from "../../support/wire.js";
import type { Authorizer } from "./mcp-clients.js";
import { createTestIssuer } from "./test-issuer.js";

/** The one public URL every instance of a cluster serves (its OAuth resource). */
const CLUSTER_PUBLIC_URL = "https://coach.cluster.test";

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
  /**
   * The configuration file every instance got (public URL and issuer); one with `perInstance`
   * additions got its own copy with them.
   */
  readonly configFile: string;
  /** POST /api/sessions on instance `instance`; returns the session id. */
  launch(learner: string, instance?: number): Promise<string>;
  /**
   * The bearer token a host sends for a call: the token of the learner whose session it names (all
   * instances share one issuer and one public URL, so a token works on every instance).
   */
  authorize: Authorizer;
  /** A token of the shared test issuer for `learner`. */
  token(learner: string, scopes?: readonly string[]): Promise<string>;
  /** Internal learner row id of a session (assertions on the database only). */
  learnerId(sid: string): Promise<number>;
  /** Every row a write could touch for this learner, for "zero mutation" assertions (C14). */
  rows(sid: string): Promise<WireObject>;
  close(): Promise<void>;
}

/**
 * Start `count` instances at once (their migrations race, as in a rolling deploy); `perInstance`
 * adds configuration of instance `i` (e.g. its own line file) to the shared one.
 */
export async function startCluster(
  databaseUrl: string,
  count = 2,
  perInstance: (i: number) => Record<string, unknown> = () => ({}),
): Promise<ServerCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-cluster-"));
  // Behind one public URL (the OAuth resource), with one issuer: a scaled-out deployment.
  const issuer = await createTestIssuer();
  const shared = { publicUrl: CLUSTER_PUBLIC_URL, developmentTunnel: true, auth: issuer.config() };
  const config = path.join(dir, "cluster.config.json");
  await writeFile(config, JSON.stringify(shared, null, 2));
  const configs = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const own = perInstance(i);
      if (Object.keys(own).length === 0) return config;
      const file = path.join(dir, `node-${i}.config.json`);
      await writeFile(file, JSON.stringify({ ...shared, ...own }, null, 2));
      return file;
    }),
  );
  const env = {
    DATABASE_URL: databaseUrl,
    SKILLPILOT_LOG_HMAC_KEY: randomBytes(32).toString("base64url"),
    SKILLPILOT_CAPABILITY_KEYS: JSON.stringify(generateKeyringConfig("k1")),
  };
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      startServerProcess(["--data-dir", path.join(dir, `node-${i}`), "--config", configs[i]], {
        ...env,
        SKILLPILOT_LOG: path.join(dir, `node-${i}.log`),
      }),
    ),
  );
  const instances = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await Promise.all(instances.map((p) => p.stop()));
    await Promise.all([rm(dir, { recursive: true, force: true }), issuer.close()]);
    throw failed.reason;
  }
  const db = knexFactory({ client: "pg", connection: databaseUrl, pool: { min: 0, max: 4 } });
  const learnerOf = new Map<string, string>();
  const token = (learner: string, scopes: readonly string[] = contractScopes) =>
    issuer.mint({ audience: `${CLUSTER_PUBLIC_URL}/mcp`, subject: learner, scopes });
  const learnerId = async (sid: string) =>
    (await db("sessions").where({ session_id: sid }).first()).learner_id as number;
  return {
    instances,
    urls: instances.map((p) => p.mcpUrl),
    db,
    env,
    configFile: config,
    async launch(learner, instance = 0) {
      const res = await fetch(`${instances[instance].origin}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ learner, locale: "en" }),
      });
      const body = (await res.json()) as { learningSessionId?: string };
      if (res.status !== 201 || !body.learningSessionId)
        throw new Error(`launch failed: ${res.status} ${JSON.stringify(body)}`);
      learnerOf.set(body.learningSessionId, learner);
      return body.learningSessionId;
    },
    token,
    async authorize(body) {
      const args = (body as { params?: { arguments?: { learningSessionId?: unknown } } })?.params
        ?.arguments;
      const sid = typeof args?.learningSessionId === "string" ? args.learningSessionId : "";
      return token(learnerOf.get(sid) ?? "cluster-default-learner");
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
      await issuer.close();
      const unclean = codes.findIndex((code) => code !== 0);
      if (unclean !== -1)
        throw new Error(
          `instance ${unclean} stopped with ${codes[unclean]}:\n${instances[unclean].output()}`,
        );
    },
  };
}

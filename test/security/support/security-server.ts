import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Knex } from "knex";
import { contractV2 } from "../../fixtures/contract-v2/contract.js";
import { CoachDriver } from "../../runtime/support/coach-driver.js";
import {
  type CoachClient,
  connectClient,
  eras,
  errorCode,
  rpcErrorCode,
  type ToolResult,
} from "../../runtime/support/mcp-clients.js";
import {
  repoRoot,
  type RuntimeFixture,
  startFixture,
} from "../../runtime/support/runtime-fixture.js";

/** The era every security suite speaks: the newest protocol, over the official v2 client. */
export const era = eras[0];

/** Tables a tool call could write (the server's own bookkeeping tables are left out). */
const learnerTables = [
  "learners",
  "learner_state",
  "sessions",
  "progress",
  "receipts",
  "idempotency_records",
  "spent_capabilities",
] as const;

/** Every row of every table a call could write, in insertion order: the "nothing written" oracle. */
export async function databaseRows(db: Knex): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of learnerTables)
    rows[table] = (await db.raw(`SELECT * FROM ${table} ORDER BY rowid`)) as unknown[];
  return rows;
}

/**
 * The server's clock, under the test's control: running (real time plus an offset) or frozen at one
 * instant, so an expiry edge is hit to the millisecond.
 */
export class TestClock {
  private frozen: number | undefined;
  private offsetMs = 0;

  constructor(fx: RuntimeFixture) {
    fx.services.now = () => new Date(this.frozen ?? Date.now() + this.offsetMs);
  }

  /** Stop the clock at `at` (epoch ms; default: now). */
  freeze(at = Date.now() + this.offsetMs): number {
    this.frozen = at;
    return at;
  }

  /** Let the clock run again from where real time is (plus the offset). */
  release(): void {
    this.frozen = undefined;
  }

  /** Move the clock by `ms` (frozen or running). */
  advance(ms: number): void {
    if (this.frozen !== undefined) this.frozen += ms;
    else this.offsetMs += ms;
  }
}

/** One served server of a security suite, with the clients and handles a case needs. */
export interface SecurityServer {
  fx: RuntimeFixture;
  /** The v2 SDK client on the public /mcp (contract major 1, the openai lane). */
  client: CoachClient;
  /** The same client's calls, recorded, with the session helpers (sessions outlive 90 days). */
  d: CoachDriver;
  /** A client of contract major 2's endpoint, served beside major 1. */
  v2: CoachClient;
  /** A client of the claude lane's endpoint (tokens for that lane's resource). */
  claude: CoachClient;
  clock: TestClock;
  /** Launch a session of contract major 2 for `learner`. */
  launchV2(learner: string): Promise<string>;
  /** Launch a session on the claude lane for `learner`. */
  launchClaude(learner: string): Promise<string>;
  /** Raise the primary line's policyRevision by one (the floor never lets it go back). */
  bumpPolicyRevision(): Promise<void>;
}

/**
 * Registers `before`/`after` hooks that start one real server for the whole file (contract majors 1
 * and 2 side by side, sessions of 90 days, its own line file) and connect real MCP clients to its
 * public endpoint, the claude lane and major 2. Read the result inside tests.
 */
export function useSecurityServer(): () => SecurityServer {
  let served: SecurityServer | undefined;
  let dir: string | undefined;
  const clients: CoachClient[] = [];
  before(async function () {
    this.timeout(30_000);
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-security-"));
    const lineFile = path.join(dir, "line.json");
    const v2Line = path.join(dir, "line-v2.json");
    const line = JSON.parse(await readFile(path.join(repoRoot, "release/line.json"), "utf8"));
    await writeFile(lineFile, JSON.stringify(line));
    await writeFile(
      v2Line,
      await readFile(path.join(repoRoot, "test/fixtures/contract-v2/release/line.json"), "utf8"),
    );
    const fx = await startFixture(
      { lineFile, sessionTtlSeconds: 90 * 86400 },
      { contracts: [contractV2(v2Line)] },
    );
    const claudeLane = fx.services.auth.settings.lanes.find((l) => l.id === "claude");
    assert.ok(claudeLane, "the server serves the claude lane");
    const connect = async (target: Parameters<typeof connectClient>[0]) => {
      const c = await connectClient(target, era);
      clients.push(c);
      return c;
    };
    const client = await connect(fx);
    const v2 = await connect({
      mcpUrl: `${fx.server.origin}/internal/openai/v2/mcp`,
      authorize: fx.authorize,
    });
    const claude = await connect({
      mcpUrl: `${fx.server.origin}${claudeLane.mcpPath}`,
      authorize: fx.authorizeOn(claudeLane.resource),
    });
    const d = new CoachDriver(client, fx);
    // After the driver: the test clock is the one the server reads.
    const clock = new TestClock(fx);
    const launched = async (body: Record<string, unknown>) => {
      const res = await fx.launch({ locale: "en", ...body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return String(res.body.learningSessionId);
    };
    served = {
      fx,
      client,
      d,
      v2,
      claude,
      clock,
      launchV2: (learner) => launched({ learner, contractMajor: 2 }),
      launchClaude: (learner) => launched({ learner, lane: "claude" }),
      async bumpPolicyRevision() {
        line.policyRevision += 1;
        await writeFile(lineFile, JSON.stringify(line));
      },
    };
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await served?.fx.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!served) throw new Error("useSecurityServer: read before the suite's before hook ran");
    return served;
  };
}

/**
 * Make one call and insist that it is refused with exactly `code` (the stable error code of the
 * tool result) and that no row of any learner table changed.
 */
export async function assertRefusedUnwritten(
  db: Knex,
  code: string,
  call: () => Promise<ToolResult>,
): Promise<void> {
  const before = await databaseRows(db);
  const result = await call();
  assert.equal(result.isError, true, `accepted: ${JSON.stringify(result.structuredContent)}`);
  assert.equal(errorCode(result), code, JSON.stringify(result.content));
  assert.deepEqual(await databaseRows(db), before, "nothing written");
}

/**
 * Like {@link assertRefusedUnwritten} for a call the protocol refuses before any tool runs: the
 * JSON-RPC error `rpcCode` (e.g. -32602, a tool this endpoint does not serve).
 */
export async function assertRpcRefusedUnwritten(
  db: Knex,
  rpcCode: number,
  call: () => Promise<unknown>,
): Promise<void> {
  const before = await databaseRows(db);
  await assert.rejects(call(), (error: unknown) => rpcErrorCode(error) === rpcCode);
  assert.deepEqual(await databaseRows(db), before, "nothing written");
}

/** The genuine value must still be accepted after its mutations: the refusals were theirs. */
export function assertAccepted(result: ToolResult): void {
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
}

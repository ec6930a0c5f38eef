/**
 * Crash harness (issue #15 item 5; G5, G6, G7, C14). Starts the real server process (the compiled
 * CLI) on one SQLite data directory, fires writes of several learners at it, and kills it with
 * SIGKILL at random moments — also aimed inside commits through the test-only commit-delay hook
 * (SKILLPILOT_TEST_COMMIT_DELAY_MS: every group commit is held before and after COMMIT and each
 * window marked on stderr) — at least CRASH_KILLS times. After every kill it checks the database
 * (`PRAGMA integrity_check`, `foreign_key_check`), restarts, and every client retries its
 * unanswered write with the same `clientRequestId`. It asserts:
 *  - one effect per key: every key applied exactly once (receipts, idempotency records and the
 *    state version agree with the client's ledger, receipt ids one to one),
 *  - identical replays: an answer seen twice for one key is byte for byte the same, also across
 *    a kill, and a final pass replays every key ever answered,
 *  - monotonic stateVersion: each learner's confirmed versions go up by exactly one per key,
 *  - the database is intact after every kill,
 *  - and, first, that a kill during a first start (secrets.json, migrations) never stops the next
 *    start.
 * Prints a summary and exits 1 on any violation (with the seed to reproduce the schedule).
 * Run: npm run test:crash   (not part of npm test; .ci/run runs it after npm test)
 * Environment: CRASH_KILLS (120), CRASH_LEARNERS (16), CRASH_DELAY_MS (15, the hook's delay),
 * CRASH_FIRST_START_KILLS (10), CRASH_SEED (random), CRASH_DEADLINE_S (420).
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseFileName } from "../../runtime/store/sqlite-store.js";
import { contractScopes } from "../../generated/tools.gen.js";
import { loadDevIssuer } from "../../runtime/auth/dev-issuer.js";
import { rawToolCall, type ToolResult } from "../runtime/support/mcp-clients.js";
import { type ServerProcess, spawnServerProcess } from "../support/server-process.js";

const KILLS = Number(process.env.CRASH_KILLS ?? 120);
const LEARNERS = Number(process.env.CRASH_LEARNERS ?? 16);
const DELAY_MS = Number(process.env.CRASH_DELAY_MS ?? 15);
const FIRST_START_KILLS = Number(process.env.CRASH_FIRST_START_KILLS ?? 10);
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DEADLINE_MS = Number(process.env.CRASH_DEADLINE_S ?? 420) * 1000;
const ERA = "2026-07-28 (SDK v2)" as const;
const TOOL = "complete_skillpilot_goal";

/** mulberry32: a small seeded generator, so a failing schedule can be replayed with CRASH_SEED. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(SEED);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = performance.now();
const violations: string[] = [];
const violation = (message: string) => {
  if (violations.length < 1000) violations.push(message);
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** The database is intact: integrity_check says ok and no foreign key dangles. */
function checkDatabase(file: string, when: string): void {
  const db = new Database(file);
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") violation(`${when}: integrity_check: ${String(integrity)}`);
    const dangling = db.pragma("foreign_key_check") as unknown[];
    if (dangling.length > 0) violation(`${when}: foreign_key_check: ${JSON.stringify(dangling)}`);
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Phase 1: kills during a first start never stop the next start (secrets.json, migrations).
// ---------------------------------------------------------------------------------------------
const root = await mkdtemp(path.join(tmpdir(), "skillpilot-crash-"));
let firstStartKills = 0;
for (let i = 0; i < FIRST_START_KILLS; i++) {
  const dir = path.join(root, `first-start-${i}`);
  const server = spawnServerProcess(["--data-dir", dir], { SKILLPILOT_LOG: `${dir}.log` });
  await sleep(random() * 700);
  await server.kill();
  firstStartKills++;
  const again = spawnServerProcess(["--data-dir", dir], { SKILLPILOT_LOG: `${dir}.log` });
  try {
    const up = await again.ready;
    const health = await fetch(`${up.origin}/healthz`);
    if (health.status !== 200) violation(`first start ${i}: /healthz ${health.status}`);
    JSON.parse(await readFile(path.join(dir, "secrets.json"), "utf8"));
  } catch (error) {
    violation(`first start ${i}: the start after a kill failed: ${(error as Error).message}`);
  } finally {
    const code = await again.stop();
    if (code !== 0) violation(`first start ${i}: the restart stopped with ${code}`);
  }
  checkDatabase(path.join(dir, databaseFileName), `first start ${i}`);
}

// ---------------------------------------------------------------------------------------------
// Phase 2: writes of several learners, SIGKILL at random moments and inside commits, restarts.
// ---------------------------------------------------------------------------------------------
const dataDir = path.join(root, "data");
const dbFile = path.join(dataDir, databaseFileName);
const port = await freePort();
const url = `http://127.0.0.1:${port}/mcp`;
const hookEnv = { SKILLPILOT_TEST_COMMIT_DELAY_MS: String(DELAY_MS) };
const spawnServer = (env: NodeJS.ProcessEnv) =>
  spawnServerProcess(
    ["--data-dir", dataDir],
    { SKILLPILOT_LOG: path.join(root, "calls.log"), ...env },
    port,
  );

/** One write a client issued: the key, the arguments it retries verbatim, what it was answered. */
interface Op {
  key: string;
  args: Record<string, unknown>;
  /** The full result text of the first answer received (a replay must match it byte for byte). */
  answer?: string;
  receiptId?: string;
  stateVersion?: number;
  /** Attempts whose answer was lost to a kill. */
  lost: number;
  /** When the first attempt went out (ms since the epoch). */
  sentAt?: number;
}
interface Learner {
  name: string;
  sid: string;
  /** The last confirmed stateVersion. */
  version: number;
  ops: Op[];
  pending?: Op;
}

type Attempt = { kind: "answer"; result: ToolResult; text: string } | { kind: "lost" };

/** One call; a refused connection, a cut answer or the 503 of a starting server is "lost". */
async function attempt(args: Record<string, unknown>): Promise<Attempt> {
  try {
    const { status, result, error } = await rawToolCall(
      url,
      ERA,
      TOOL,
      JSON.stringify(args),
      tokens.get(String(args.learningSessionId)),
    );
    if (status === 503 || (status === 200 && !result && !error)) return { kind: "lost" };
    if (status !== 200 || error || !result) {
      violation(`HTTP ${status} ${JSON.stringify(error ?? result)}`);
      return { kind: "lost" };
    }
    return { kind: "answer", result, text: JSON.stringify(result) };
  } catch {
    return { kind: "lost" };
  }
}

/** The gate the clients wait at while the server is down (closing a closed gate keeps it). */
let up: Promise<void> = Promise.resolve();
let openGate: (() => void) | undefined;
const closeGate = () => {
  if (!openGate) up = new Promise((resolve) => (openGate = resolve));
};
const release = () => {
  openGate?.();
  openGate = undefined;
};
closeGate();

let stopping = false;
const counts = {
  answered: 0,
  recoveredReplayed: 0,
  recoveredApplied: 0,
  duplicates: 0,
  killsAt: {} as Record<string, number>,
};
/** When each kill happened, to tell a replayed answer (committed before) from a fresh one. */
const killTimes: number[] = [];

async function client(learner: Learner): Promise<void> {
  while (!stopping || learner.pending) {
    await up;
    if (!learner.pending) {
      const args = {
        learningSessionId: learner.sid,
        expectedStateVersion: learner.version,
        clientRequestId: randomUUID(),
        decision: "needsMorePractice",
      };
      learner.pending = { key: args.clientRequestId, args, lost: 0 };
    }
    const op = learner.pending;
    op.sentAt ??= Date.now();
    const got = await attempt(op.args);
    if (got.kind === "lost") {
      op.lost++;
      await sleep(5);
      continue;
    }
    if (got.result.isError) {
      violation(`${learner.name} key ${op.key}: refused: ${got.result.content[0]?.text}`);
      learner.pending = undefined;
      return;
    }
    const { receipt } = got.result.structuredContent as {
      receipt: { receiptId: string; stateVersion: number; recordedAt: string };
    };
    if (receipt.stateVersion !== learner.version + 1)
      violation(
        `${learner.name} key ${op.key}: stateVersion ${receipt.stateVersion} after ` +
          `${learner.version} (not monotonic by one)`,
      );
    learner.version = receipt.stateVersion;
    op.answer = got.text;
    op.receiptId = receipt.receiptId;
    op.stateVersion = receipt.stateVersion;
    learner.ops.push(op);
    learner.pending = undefined;
    counts.answered++;
    if (op.lost > 0) {
      // Committed before a kill (a replay of the stored answer) or only by this retry?
      const committedBefore = killTimes.some(
        (t) => t >= op.sentAt! && Date.parse(receipt.recordedAt) <= t,
      );
      if (committedBefore) counts.recoveredReplayed++;
      else counts.recoveredApplied++;
    }
    // Now and then the client retries an answered write at once: the answer must be identical.
    if (random() < 0.15) {
      const again = await attempt(op.args);
      if (again.kind === "answer") {
        counts.duplicates++;
        if (again.text !== op.answer) violation(`${learner.name} key ${op.key}: replay differs`);
      }
    }
  }
}

// Set-up on a first, clean start: every learner launched with a goal active.
const setup = await spawnServer({}).ready;
const learners: Learner[] = [];
// The development issuer's key lives in the data directory; the port is fixed across restarts, so
// one token per learner (the host's) stays valid for the whole run.
const devIssuer = await loadDevIssuer(dataDir);
const tokens = new Map<string, string>();
for (let i = 0; i < LEARNERS; i++) {
  const res = await fetch(`${setup.origin}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ learner: `crash-${i}`, locale: "en" }),
  });
  const sid = ((await res.json()) as { learningSessionId: string }).learningSessionId;
  const token = await devIssuer.mint({
    issuer: setup.origin,
    audience: url,
    subject: `crash-${i}`,
    scopes: contractScopes,
  });
  tokens.set(sid, token);
  const ctx = (
    await rawToolCall(
      url,
      ERA,
      "get_skillpilot_learning_context",
      JSON.stringify({ learningSessionId: sid }),
      token,
    )
  ).result!.structuredContent as { stateVersion: number; options: { payload: string }[] };
  const chosen = (
    await rawToolCall(
      url,
      ERA,
      "choose_skillpilot_option",
      JSON.stringify({
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        option: ctx.options[0].payload,
      }),
      token,
    )
  ).result!.structuredContent as { stateVersion: number };
  learners.push({ name: `crash-${i}`, sid, version: chosen.stateVersion, ops: [] });
}
await setup.stop();
const baseVersion = learners[0].version;

const clients = learners.map((l) => client(l));
const modes = ["random moment", "before COMMIT", "after COMMIT", "random moment", "during start"];
let kills = 0;
while (kills < KILLS) {
  if (performance.now() - started > DEADLINE_MS) {
    violation(`deadline: only ${kills} of ${KILLS} kills within ${DEADLINE_MS / 1000} s`);
    break;
  }
  const mode = modes[Math.floor(random() * modes.length)];
  const server = spawnServer(hookEnv);
  if (mode === "during start") {
    await sleep(random() * 600);
  } else {
    let running: ServerProcess;
    try {
      running = await server.ready;
    } catch (error) {
      violation(`restart ${kills}: ${(error as Error).message}`);
      break;
    }
    release();
    if (mode === "random moment") {
      await sleep(20 + random() * 400);
    } else {
      // Let traffic build up, then aim at the next commit window of this kind.
      await sleep(random() * 300);
      const marker =
        mode === "before COMMIT"
          ? "skillpilot-test-hook: before-commit"
          : "skillpilot-test-hook: after-commit";
      await Promise.race([running.waitFor(marker), sleep(2000)]);
      await sleep(random() * DELAY_MS);
    }
  }
  closeGate();
  killTimes.push(Date.now());
  await server.kill();
  kills++;
  counts.killsAt[mode] = (counts.killsAt[mode] ?? 0) + 1;
  checkDatabase(dbFile, `after kill ${kills} (${mode})`);
}

// A last clean start without the hook: every unanswered write is retried until answered.
const final = await spawnServer({}).ready;
stopping = true;
release();
await Promise.all(clients);

// Every key ever answered, replayed once more: identical bytes, nothing applied again.
let replayed = 0;
const allOps = learners.flatMap((l) => l.ops.map((op) => ({ l, op })));
for (let i = 0; i < allOps.length; i += 16)
  await Promise.all(
    allOps.slice(i, i + 16).map(async ({ l, op }) => {
      const again = await attempt(op.args);
      if (again.kind !== "answer") violation(`${l.name} key ${op.key}: no answer on final replay`);
      else if (again.text !== op.answer) violation(`${l.name} key ${op.key}: final replay differs`);
      else replayed++;
    }),
  );
const stopCode = await final.stop();
if (stopCode !== 0) violation(`the final server stopped with ${stopCode}`);

// The database against the clients' ledger: one effect per key.
checkDatabase(dbFile, "at the end");
const db = new Database(dbFile, { readonly: true });
try {
  for (const l of learners) {
    const { learner_id } = db
      .prepare("SELECT learner_id FROM sessions WHERE session_id = ?")
      .get(l.sid) as { learner_id: number };
    const state = db
      .prepare("SELECT state_version FROM learner_state WHERE learner_id = ?")
      .get(learner_id) as { state_version: number };
    if (state.state_version !== baseVersion + l.ops.length)
      violation(
        `${l.name}: stateVersion ${state.state_version} in the database, ` +
          `${baseVersion + l.ops.length} by the ledger`,
      );
    const receipts = db
      .prepare(
        "SELECT receipt_id, state_version FROM receipts WHERE learner_id = ? AND operation = ? " +
          "ORDER BY state_version",
      )
      .all(learner_id, TOOL) as { receipt_id: string; state_version: number }[];
    const expectedVersions = l.ops.map((_, n) => baseVersion + 1 + n);
    if (JSON.stringify(receipts.map((r) => r.state_version)) !== JSON.stringify(expectedVersions))
      violation(`${l.name}: ${receipts.length} receipts for ${l.ops.length} keys (or a gap)`);
    const ledgerReceipts = new Set(l.ops.map((op) => op.receiptId));
    if (receipts.some((r) => !ledgerReceipts.has(r.receipt_id)))
      violation(`${l.name}: a receipt no answer named (an effect without a key)`);
    const keys = db
      .prepare(
        "SELECT client_request_id FROM idempotency_records WHERE session_id = ? AND tool_name = ?",
      )
      .all(l.sid, TOOL) as { client_request_id: string }[];
    const ledgerKeys = new Set(l.ops.map((op) => op.key));
    if (keys.length !== ledgerKeys.size || keys.some((k) => !ledgerKeys.has(k.client_request_id)))
      violation(`${l.name}: ${keys.length} idempotency records for ${ledgerKeys.size} keys`);
  }
} finally {
  db.close();
}
await rm(root, { recursive: true, force: true });

const seconds = (performance.now() - started) / 1000;
const lost = counts.recoveredReplayed + counts.recoveredApplied;
const byMode = Object.entries(counts.killsAt)
  .map(([mode, n]) => `${n} ${mode}`)
  .join(", ");
process.stdout.write(
  `crash harness (seed ${SEED}): ${kills} SIGKILLs of the serving process (${byMode}; ` +
    `commit hook ${DELAY_MS} ms) + ${firstStartKills} during a first start; ${LEARNERS} learners\n` +
    `  keys: ${counts.answered} written; ${lost} answers lost to a kill and recovered by ` +
    `retrying the same clientRequestId: ${counts.recoveredReplayed} replayed (committed before ` +
    `the kill), ${counts.recoveredApplied} applied by a retry (not committed before the kill)\n` +
    `  replays compared: ${counts.duplicates} immediate duplicates, ${replayed} final replays\n` +
    `  time ${seconds.toFixed(0)} s\n`,
);
if (kills < 100) violation(`only ${kills} kills (at least 100 required)`);
if (violations.length > 0) {
  process.stdout.write(`crash harness FAILED (seed ${SEED}): ${violations.length} violations\n`);
  for (const v of violations.slice(0, 20)) process.stdout.write(`  - ${v}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    "crash harness OK: one effect per key, byte-identical replays, stateVersion +1 per key for " +
      "every learner, integrity_check ok after every kill and at the end, every restart after a " +
      "first-start kill came up\n",
  );
}

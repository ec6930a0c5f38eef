import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { type CoachClient, connectClient, errorCode } from "../runtime/support/mcp-clients.js";
import { teachFirstOption } from "./support/active-goal.js";
import { runCli as skillpilot } from "../support/run-cli.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import type { WireObject } from "../support/wire.js";

/**
 * Two `skillpilot start` processes on one SQLite data directory, behind one public URL, driven as
 * docs/runtime.md describes them (the CLI's own token and session, a real SDK client each): each
 * keeps the learners it read, and must still read at once what the other process committed. The
 * database file is checked after every step.
 */
describe("two server processes on one SQLite data directory", function () {
  this.timeout(60_000);
  const env = {
    SKILLPILOT_PUBLIC_URL: "https://coach.shared-file.test",
    SKILLPILOT_DEVELOPMENT_TUNNEL: "1",
  };
  let dir: string;
  let servers: ServerProcess[] = [];
  let a: CoachClient;
  let b: CoachClient;
  let sid: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-shared-file-"));
    // One after the other: the second finds the file the first migrated.
    servers.push(await startServerProcess(["--data-dir", dir], env));
    servers.push(await startServerProcess(["--data-dir", dir], env));
    const port = new URL(servers[0]!.origin).port;
    const cli = async (...args: string[]) => {
      const run = await skillpilot([...args, "--data-dir", dir, "--port", port], env);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout.trim();
    };
    const token = await cli("auth", "token", "--learner", "ada");
    sid = await cli("session", "start", "--learner", "ada");
    const authorize = async () => token;
    a = await connectClient(servers[0]!.mcpUrl, "2026-07-28 (SDK v2)", { authorize });
    b = await connectClient(servers[1]!.mcpUrl, "2026-07-28 (SDK v2)", { authorize });
  });

  after(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await Promise.allSettled(servers.map((s) => s.stop()));
    servers = [];
    await rm(dir, { recursive: true, force: true });
  });

  /** What the file holds for the session's learner: its state version and receipts, in order. */
  const onDisk = () => {
    const db = new Database(path.join(dir, "skillpilot.sqlite"), { readonly: true });
    try {
      const { learner_id } = db
        .prepare("SELECT learner_id FROM sessions WHERE session_id = ?")
        .get(sid) as { learner_id: number };
      const { state_version } = db
        .prepare("SELECT state_version FROM learner_state WHERE learner_id = ?")
        .get(learner_id) as { state_version: number };
      const receipts = db
        .prepare(
          "SELECT operation, state_version FROM receipts WHERE learner_id = ? ORDER BY state_version",
        )
        .all(learner_id)
        .map((r) => {
          const row = r as { operation: string; state_version: number };
          return `${row.operation}@${row.state_version}`;
        });
      return { stateVersion: state_version, receipts };
    } finally {
      db.close();
    }
  };

  const context = async (client: CoachClient): Promise<WireObject> => {
    const result = await client.callTool("get_skillpilot_learning_context", {
      learningSessionId: sid,
    });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    return result.structuredContent as WireObject;
  };

  it("each process reads the other's commits at once, and refuses a write on what it replaced", async () => {
    // A reads the new learner twice (the second read is served from what A kept).
    const first = await context(a);
    assert.equal((await context(a)).stateVersion, first.stateVersion);
    assert.deepEqual(onDisk(), { stateVersion: 1, receipts: [] });

    // B takes the first option: its commit is version 2.
    assert.equal(await teachFirstOption(b, sid), 2);
    assert.deepEqual(onDisk(), { stateVersion: 2, receipts: ["choose_skillpilot_option@2"] });

    // A's next read is B's commit, not what A kept.
    const afterChoice = await context(a);
    assert.equal(afterChoice.stateVersion, 2);
    assert.equal(afterChoice.requiredAction, "teachActiveGoal");

    // A completes the goal on that version; B reads A's commit.
    const done = await a.callTool("complete_skillpilot_goal", {
      learningSessionId: sid,
      expectedStateVersion: 2,
      clientRequestId: randomUUID(),
      decision: "achieved",
    });
    assert.equal(done.isError, undefined, JSON.stringify(done));
    assert.equal((done.structuredContent as WireObject).receipt.stateVersion, 3);
    assert.equal((await context(b)).stateVersion, 3);
    const three = ["choose_skillpilot_option@2", "complete_skillpilot_goal@3"];
    assert.deepEqual(onDisk(), { stateVersion: 3, receipts: three });

    // B, writing on the version A replaced, is refused and commits nothing.
    const stale = await b.callTool("complete_skillpilot_goal", {
      learningSessionId: sid,
      expectedStateVersion: 2,
      clientRequestId: randomUUID(),
      decision: "achieved",
    });
    assert.equal(errorCode(stale), "STATE_CONFLICT");
    assert.deepEqual(onDisk(), { stateVersion: 3, receipts: three });
  });
});

import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { coachHandlers } from "../../runtime/domain/handlers/index.js";
import { databaseFileName } from "../../runtime/store/sqlite-store.js";
import type { CoachHandlers } from "../../generated/handlers.gen.js";
import type { CallContext } from "../../runtime/domain/call-context.js";
import { connectClient } from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture } from "../runtime/support/runtime-fixture.js";

describe("graceful shutdown", () => {
  it("finishes an in-flight call before closing the database", async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handlers: CoachHandlers<CallContext> = {
      ...coachHandlers,
      async get_skillpilot_learning_context(input, ctx) {
        entered();
        await gate;
        return coachHandlers.get_skillpilot_learning_context(input, ctx);
      },
    };
    const fx = await startFixture({}, handlers);
    try {
      const sid = await fx.newSession("drain");
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      const call = client.callTool("get_skillpilot_learning_context", { learningSessionId: sid });
      await inHandler;
      let closed = false;
      const closing = fx.server.close().then(() => (closed = true));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(closed, false, "close waits for the in-flight call");
      release();
      const result = await call;
      assert.equal(result.isError, undefined);
      assert.equal(
        (result.structuredContent as { learningSessionId: string }).learningSessionId,
        sid,
      );
      await closing;
      await assert.rejects(
        fx.services.store.write(async () => 1),
        /store is closed|not open/,
      );
      await client.close().catch(() => undefined);
    } finally {
      await fx.close();
    }
  });

  it("`start`, its alias `serve` and `session start` answer --help with exit 0", async function () {
    this.timeout(60_000);
    for (const args of [["start"], ["serve"], ["session", "start"]]) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [path.join(repoRoot, "bin/skillpilot.js"), ...args, "--help"],
        { cwd: repoRoot },
      );
      assert.match(stdout, /Usage: skillpilot/, args.join(" "));
      assert.match(stdout, /--data-dir/);
    }
  });

  it(
    "`skillpilot start` prints the MCP URL, serves, and exits 0 on SIGTERM with " +
      "the database closed",
    async function () {
      this.timeout(60_000);
      const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-start-"));
      try {
        const child = spawn(
          process.execPath,
          [path.join(repoRoot, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", dir],
          {
            cwd: repoRoot,
            env: { ...process.env, SKILLPILOT_LOG: path.join(dir, "calls.log") },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        const exited = new Promise<number | null>((resolve) =>
          child.once("exit", (code) => resolve(code)),
        );
        let out = "";
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString();
            const m = /MCP endpoint (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
            if (m) resolve(m[1]);
          });
          void exited.then(() => reject(new Error(`exited early: ${out}`)));
        });
        const health = await fetch(new URL("/healthz", url));
        assert.equal(health.status, 200);
        await access(path.join(dir, databaseFileName));
        await access(path.join(dir, "secrets.json"));
        child.kill("SIGTERM");
        assert.equal(await exited, 0);
        await assert.rejects(
          access(path.join(dir, `${databaseFileName}-wal`)),
          "the WAL is checkpointed and removed on a clean close",
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

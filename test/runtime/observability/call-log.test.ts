import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeLogger, createLogger, logCall } from "../../../runtime/observability/call-log.js";

const fields = (i: number) => ({ contractMajor: 1, pluginLine: "skillpilot-coach/v1", serverBuild: `b${i}`, toolName: "get_skillpilot_learning_context", status: "ok" as const, resultCode: "OK", latencyMs: 0.1 });

describe("call log durability on close (G10, L13)", () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(tmpdir(), "skillpilot-call-log-"))));
  after(() => rm(dir, { recursive: true, force: true }));

  it("G10, L13: every line logged before close is in the file once close resolves, even while the file is still opening and writes are pending", async () => {
    for (let run = 0; run < 5; run++) {
      const file = path.join(dir, `run-${run}`, "calls.log");
      const logger = createLogger(file, "info");
      // Logged at once: the asynchronous destination has not even opened the file yet.
      for (let i = 0; i < 20_000; i++) logCall(logger, fields(i));
      await closeLogger(logger);
      const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
      assert.equal(lines.length, 20_000, `run ${run}`);
      assert.equal((JSON.parse(lines[19_999]) as { serverBuild: string }).serverBuild, "b19999");
    }
  });

  it("closing twice is harmless", async () => {
    const logger = createLogger(path.join(dir, "twice.log"), "info");
    logCall(logger, fields(1));
    await closeLogger(logger);
    await closeLogger(logger);
    assert.equal((await readFile(path.join(dir, "twice.log"), "utf8")).split("\n").filter(Boolean).length, 1);
  });
});

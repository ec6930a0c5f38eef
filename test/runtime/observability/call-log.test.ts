import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { pino } from "pino";
import { closeLogger, createLogger, logCall } from "../../../runtime/observability/call-log.js";

const callLogModule = fileURLToPath(
  new URL("../../../runtime/observability/call-log.ts", import.meta.url),
);
const readLines = async (file: string) =>
  existsSync(file) ? (await readFile(file, "utf8")).split("\n").filter(Boolean) : [];

const fields = (i: number) => ({
  contractMajor: 1,
  pluginLine: "skillpilot-coach/v1",
  serverBuild: `b${i}`,
  toolName: "get_skillpilot_learning_context",
  status: "ok" as const,
  resultCode: "OK",
  latencyMs: 0.1,
});

describe("call log durability on close (G10, L13)", () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(tmpdir(), "skillpilot-call-log-"))));
  after(() => rm(dir, { recursive: true, force: true }));

  it(
    "G10, L13: every line logged before close is in the file once close " +
      "resolves, even while the file is still opening and writes are pending",
    async () => {
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
    },
  );

  it("closing twice is harmless", async () => {
    const logger = createLogger(path.join(dir, "twice.log"), "info");
    logCall(logger, fields(1));
    await closeLogger(logger);
    await closeLogger(logger);
    assert.equal(
      (await readFile(path.join(dir, "twice.log"), "utf8")).split("\n").filter(Boolean).length,
      1,
    );
  });

  it("L13: a call line is exactly the line pino itself writes for the same fields", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: "info", base: undefined, messageKey: "msg" }, sink);
    const call = {
      ...fields(7),
      sessionFingerprint: "fp_abc",
      stateVersion: 3,
      clientRequestId: "0b9f0c4e-5d43-4a0e-9f0e-2a4c6f1d7e21",
    };
    logger.info(call, "tool call");
    logCall(logger, call);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 2);
    const [viaPino, direct] = lines.map((line) => line.replace(/"time":\d+/, '"time":0'));
    assert.equal(direct, viaPino);
    logCall(pino({ level: "warn" }, sink), call);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 2, "nothing is written below the configured level");
  });

  it("L13: buffered lines reach the file without a close, within the flush interval", async () => {
    const file = path.join(dir, "periodic.log");
    const logger = createLogger(file, "info");
    try {
      logCall(logger, fields(1));
      for (let waited = 0; (await readLines(file)).length === 0; waited += 50) {
        assert.ok(waited < 5000, "the line never reached the file");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal((await readLines(file)).length, 1);
    } finally {
      await closeLogger(logger);
    }
  });

  it("L13: lines still buffered when the process exits are written on the way out", async () => {
    const file = path.join(dir, "exit.log");
    const script = `import { createLogger, logCall } from ${JSON.stringify(callLogModule)};
      const logger = createLogger(${JSON.stringify(file)}, "info");
      const base = { contractMajor: 1, pluginLine: "p", toolName: "t", status: "ok" };
      for (let i = 0; i < 3; i++)
        logCall(logger, { ...base, serverBuild: "b" + i, resultCode: "OK", latencyMs: 0 });
      process.exit(0);`;
    await promisify(execFile)(process.execPath, [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      script,
    ]);
    assert.deepEqual(
      (await readLines(file)).map(
        (line) => (JSON.parse(line) as { serverBuild: string }).serverBuild,
      ),
      ["b0", "b1", "b2"],
    );
  });
});

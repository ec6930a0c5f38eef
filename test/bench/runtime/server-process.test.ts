import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  STEADY_STATE_V8_FLAGS,
  startProcess,
  stopProcess,
} from "../../../bench/runtime/server-process.js";
import { spawnServerProcess, useNodeOptions } from "../../support/server-process.js";

/** The command line of a running process, as the kernel has it. */
const commandLine = (pid: number) =>
  readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);

describe("benchmarked servers run with V8's idle-time heuristics off (issue #35 item 0)", () => {
  let dir: string;
  before(async function () {
    if (!existsSync("/proc/self/cmdline")) this.skip();
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-flags-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("startProcess puts the steady-state flags before the script, and V8 takes them", async () => {
    const script = path.join(dir, "server.mjs");
    // A stand-in server: prints the endpoint line startProcess waits for, and what V8 was given.
    await writeFile(
      script,
      'process.stdout.write("MCP endpoint http://127.0.0.1:1/mcp " + JSON.stringify(process.execArgv) + "\\n");\n' +
        "setInterval(() => {}, 1000);\n" +
        'process.on("SIGTERM", () => process.exit(0));\n',
    );
    const server = await startProcess(dir, [script]);
    try {
      const execArgv = JSON.parse(/(\[.*\])/.exec(server.stdout)![1]) as string[];
      assert.deepEqual(execArgv, [...STEADY_STATE_V8_FLAGS]);
      assert.deepEqual(STEADY_STATE_V8_FLAGS, ["--no-flush-bytecode", "--no-memory-reducer"]);
    } finally {
      await stopProcess(server.child);
    }
  });

  it("useNodeOptions reaches the compiled servers the test helpers spawn, and only while set", async () => {
    useNodeOptions(STEADY_STATE_V8_FLAGS);
    const flagged = spawnServerProcess(["--data-dir", path.join(dir, "a")]);
    useNodeOptions([]);
    const plain = spawnServerProcess(["--data-dir", path.join(dir, "b")]);
    try {
      const [a, b] = await Promise.all([flagged.ready, plain.ready]);
      const argsA = commandLine(a.child.pid!);
      assert.deepEqual(argsA.slice(1, 3), [...STEADY_STATE_V8_FLAGS]);
      assert.match(argsA[3], /bin\/skillpilot\.js$/);
      assert.match(commandLine(b.child.pid!)[1], /bin\/skillpilot\.js$/);
    } finally {
      await Promise.all([flagged.stop(), plain.stop()]);
    }
  });
});

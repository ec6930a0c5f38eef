import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../../support/run-cli.js";

describe("trace record: --out is opened before the proxy listens (issue #32 item 2)", function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sp-record-out-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const record = (out: string, port = "0") =>
    runCli([
      "-C",
      dir,
      "trace",
      "record",
      "--upstream",
      "http://127.0.0.1:9/mcp",
      "--port",
      port,
      "--out",
      out,
    ]);

  it("an --out that cannot be opened is an I/O error before the banner, exit 2, nothing created", async () => {
    const run = await record("missing-dir/trace.jsonl");
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, "", "no banner");
    assert.match(run.stderr, /missing-dir\/trace\.jsonl: no such file or directory/);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    assert.deepEqual(await readdir(dir), []);
  });

  it("a port in use fails the start and leaves no empty --out behind", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = await record("trace.jsonl", String(port));
      assert.equal(run.code, 2, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
      assert.equal(existsSync(path.join(dir, "trace.jsonl")), false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

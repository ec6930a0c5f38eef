import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../../../support/run-cli.js";
import { request, rpc } from "../support/proxy-client.js";
import { type RecordProcess, startRecordProcess } from "../support/record-process.js";

const MB = 1024 * 1024;
const DEEP = 200_000;
const HUGE_SSE_MB = 700;
const HUGE_JSON_MB = 600;
const filler = Buffer.alloc(MB, "x");

/** Write `mb` MB of filler to `res`, waiting for the reader (backpressure). */
async function fill(res: http.ServerResponse, mb: number): Promise<void> {
  for (let i = 0; i < mb; i++)
    if (!res.write(filler)) await new Promise((resolve) => res.once("drain", resolve));
}

/**
 * An MCP server that misbehaves on request: the JSON-RPC method names the misbehaviour. Every body
 * it receives is kept (as its sha256) so tests can see what was forwarded.
 */
function hostileUpstream() {
  const received: { path: string; sha256: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      received.push({
        path: req.url ?? "",
        sha256: createHash("sha256").update(body).digest("hex"),
      });
      let message: { id?: number; method?: string } = {};
      try {
        message = JSON.parse(body.toString("utf8"));
      } catch {
        // not JSON: answered like any other call
      }
      const id = message.id ?? 0;
      const head = `{"jsonrpc":"2.0","id":${id},"result":`;
      switch (message.method) {
        case "deep": {
          const deep = `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`;
          res.writeHead(200, { "content-type": "application/json" }).end(`${head}{"x":${deep}}}`);
          return;
        }
        case "reset":
          // Promise 1 MB, send a little, then reset the connection mid-body.
          res.writeHead(200, { "content-type": "application/json", "content-length": String(MB) });
          res.write(`${head}{"x":"`);
          setTimeout(() => req.socket.resetAndDestroy(), 50);
          return;
        case "huge-sse":
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`);
          await fill(res, HUGE_SSE_MB);
          res.end(`"}}\n\ndata: ${head}{"content":[],"after":"the huge event"}}\n\n`);
          return;
        case "huge-json":
          res.writeHead(200, { "content-type": "application/json" });
          res.write(`${head}{"blob":"`);
          await fill(res, HUGE_JSON_MB);
          res.end(`"}}`);
          return;
        default:
          res.writeHead(200, { "content-type": "application/json" }).end(`${head}{"ok":true}}`);
      }
    });
  });
  return { server, received };
}

describe("trace record: a hostile upstream never stops forwarding, and the proxy stays small (real processes)", function () {
  this.timeout(300_000);
  let dir: string;
  let upstream: ReturnType<typeof hostileUpstream>;
  let proxy: RecordProcess;
  let out: string;
  const call = (id: number, method: string, keep?: number) =>
    request(proxy.url, {
      body: rpc(id, method),
      headers: { accept: "application/json, text/event-stream" },
      ...(keep !== undefined && { keep }),
      timeoutMs: 120_000,
    });
  /** After each misbehaviour, the next ordinary call goes through. */
  const stillUp = async (id: number) => {
    const next = await call(id, "ping");
    assert.equal(next.status, 200);
    assert.equal(JSON.parse(next.body.toString()).result.ok, true);
  };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sp-hostile-upstream-"));
    out = path.join(dir, "trace.jsonl");
    upstream = hostileUpstream();
    await new Promise<void>((resolve) => upstream.server.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.server.address() as AddressInfo;
    proxy = await startRecordProcess([
      "--upstream",
      `http://127.0.0.1:${port}/mcp`,
      "--port",
      "0",
      "--out",
      out,
    ]);
  });
  after(async () => {
    await proxy?.stop();
    upstream.server.closeAllConnections();
    await new Promise((resolve) => upstream.server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it(`forwards an answer nested ${DEEP} deep whole and records it as unrecorded (tooDeep)`, async () => {
    const answer = await call(1, "deep");
    assert.equal(answer.status, 200);
    assert.equal(answer.cut, false);
    assert.equal(answer.bytes, 2 * DEEP + `{"jsonrpc":"2.0","id":1,"result":{"x":}}`.length);
    await stillUp(2);
  });

  it("ends the client's answer when the upstream resets mid-body (no hang)", async () => {
    const answer = await call(3, "reset");
    assert.equal(answer.status, 200);
    assert.equal(answer.cut, true, "the cut answer is ended, not left hanging");
    await stillUp(4);
  });

  it(`streams an SSE event of ${HUGE_SSE_MB} MB through and the event after it, recorded as unrecorded`, async () => {
    const answer = await call(5, "huge-sse", 200);
    assert.equal(answer.status, 200);
    assert.equal(answer.cut, false);
    assert.ok(answer.bytes > HUGE_SSE_MB * MB, `${answer.bytes} bytes`);
    assert.match(answer.body.toString(), /"after":"the huge event"\}\}\n\n$/);
    await stillUp(6);
  });

  it(`forwards a JSON answer of ${HUGE_JSON_MB} MB whole`, async () => {
    const answer = await call(7, "huge-json", 100);
    assert.equal(answer.status, 200);
    assert.equal(answer.cut, false);
    assert.equal(
      answer.bytes,
      HUGE_JSON_MB * MB + `{"jsonrpc":"2.0","id":7,"result":{"blob":""}}`.length,
    );
    await stillUp(8);
  });

  it("forwards a body that is not UTF-8 byte for byte, and marks it unrecorded", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":9,"method":"x","params":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const answer = await request(proxy.url, { body: bytes });
    assert.equal(answer.status, 200);
    assert.equal(
      upstream.received.at(-1)?.sha256,
      createHash("sha256").update(bytes).digest("hex"),
    );
  });

  it("kept its peak memory well under 500 MB, and wrote a trace trace check reads with a note", async () => {
    const peak = proxy.peakMb();
    assert.ok(peak < 250, `peak RSS of the proxy ${peak.toFixed(0)} MB`);
    const stopped = await proxy.stop();
    assert.equal(stopped.code, 0);
    const events = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            from?: string;
            unrecorded?: { reason: string; answers?: unknown[] };
            message?: { id?: number };
          },
      );
    const unrecorded = events.filter((e) => e.unrecorded).map((e) => [e.from, e.unrecorded]);
    assert.deepEqual(unrecorded, [
      ["server", { reason: "tooDeep", answers: [1] }],
      ["server", { reason: "tooLarge", answers: [5] }],
      ["server", { reason: "tooLarge", answers: [7] }],
      ["client", { reason: "notUtf8" }],
    ]);
    // The answer after the huge event is recorded; the reset one is not (it never completed).
    assert.ok(events.some((e) => e.from === "server" && e.message?.id === 5));
    assert.ok(!events.some((e) => e.from === "server" && e.message?.id === 3));
    const check = await runCli(["trace", "check", out, "--format", "json"]);
    const report = JSON.parse(check.stdout) as {
      diagnostics: { ruleId: string; message: string }[];
    };
    assert.ok(
      report.diagnostics.some(
        (d) => d.ruleId === "TRACE_UNRECORDED" && /4 message\(s\)/.test(d.message),
      ),
      check.stdout,
    );
    assert.ok(!report.diagnostics.some((d) => d.ruleId === "TRACE_INPUT_INVALID"), check.stdout);
  });
});

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TLSSocket } from "node:tls";
import { runCli } from "../../../support/run-cli.js";
import { request, rpc } from "../support/proxy-client.js";
import { type RecordProcess, startRecordProcess } from "../support/record-process.js";

/** A self-signed certificate for 127.0.0.1 and localhost (openssl), as PEM files in `dir`. */
function selfSigned(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ],
    { stdio: "ignore" },
  );
  return { cert, key };
}

describe("trace record: an https upstream is reached over verified TLS (real processes)", function () {
  this.timeout(120_000);
  let dir: string;
  let upstream: https.Server;
  let upstreamUrl: string;
  let ca: string;
  /** What the upstream saw of each request: TLS or not, and the bearer token. */
  const seen: { encrypted: boolean; authorization?: string; host?: string }[] = [];
  const running: RecordProcess[] = [];
  const record = async (...extra: string[]) => {
    const proxy = await startRecordProcess([
      "--upstream",
      upstreamUrl,
      "--port",
      "0",
      "--out",
      path.join(dir, `trace-${running.length}.jsonl`),
      ...extra,
    ]);
    running.push(proxy);
    return proxy;
  };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sp-tls-upstream-"));
    const { cert, key } = selfSigned(dir);
    ca = cert;
    upstream = https.createServer(
      { cert: await readFile(cert), key: await readFile(key) },
      (req, res) => {
        seen.push({
          encrypted: (req.socket as TLSSocket).encrypted === true,
          authorization: req.headers.authorization,
          host: req.headers.host,
        });
        req.resume();
        req.on("end", () =>
          res
            .writeHead(200, { "content-type": "application/json" })
            .end('{"jsonrpc":"2.0","id":1,"result":{"tls":true}}'),
        );
      },
    );
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    upstreamUrl = `https://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    for (const p of running) await p.stop();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("with --ca-file: forwards over TLS, the bearer token only inside it, and records the call", async () => {
    const proxy = await record("--ca-file", ca);
    const before = seen.length;
    const answer = await request(proxy.url, {
      body: rpc(1, "tools/list"),
      headers: { authorization: "Bearer opaque-token-0123456789" },
    });
    assert.equal(answer.status, 200, answer.body.toString());
    assert.deepEqual(JSON.parse(answer.body.toString()).result, { tls: true });
    assert.deepEqual(seen.slice(before), [
      {
        encrypted: true,
        authorization: "Bearer opaque-token-0123456789",
        host: new URL(upstreamUrl).host,
      },
    ]);
    const stopped = await proxy.stop();
    assert.equal(stopped.code, 0);
    const trace = await readFile(path.join(dir, "trace-0.jsonl"), "utf8");
    assert.match(trace, /"method":"tools\/list"/);
    assert.match(trace, /"tls":true/);
  });

  it("without --ca-file: refuses the untrusted certificate with one clear line, and forwards nothing", async () => {
    const proxy = await record();
    const before = seen.length;
    const answer = await request(proxy.url, {
      body: rpc(1, "tools/list"),
      headers: { authorization: "Bearer opaque-token-0123456789" },
    });
    assert.equal(answer.status, 502);
    assert.match(answer.body.toString(), /TLS certificate not trusted .*--ca-file/);
    assert.equal(seen.length, before, "the upstream saw no request");
    await proxy.stop();
    const lines = proxy.stderr().trim().split("\n");
    assert.equal(lines.length, 1, proxy.stderr());
    assert.match(
      lines[0],
      /^skillpilot: upstream https:\/\/127\.0\.0\.1:\d+: TLS certificate not trusted \(\w+\); nothing was forwarded\. Pass --ca-file/,
    );
    assert.doesNotMatch(proxy.stderr(), /opaque-token/);
  });

  it("refuses a URL it cannot forward to, a CA file that is not PEM and --ca-file with http, before listening", async () => {
    const out = path.join(dir, "never.jsonl");
    for (const [args, message] of [
      [["--upstream", "ftp://127.0.0.1/mcp"], /only http: and https: upstreams/],
      [
        ["--upstream", upstreamUrl, "--ca-file", path.join(dir, "key.pem")],
        /not a PEM certificate/,
      ],
      [
        ["--upstream", "http://127.0.0.1:9/mcp", "--ca-file", ca],
        /--ca-file applies to an https: upstream only/,
      ],
      [["--upstream", upstreamUrl, "--redact-pattern", "("], /not a regular expression/],
      [["--upstream", upstreamUrl, "--redact-pattern", "x*"], /matches the empty string/],
    ] as const) {
      const run = await runCli(["trace", "record", ...args, "--out", out]);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, "", "no banner");
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
      await assert.rejects(readFile(out), "no trace file left");
    }
  });
});

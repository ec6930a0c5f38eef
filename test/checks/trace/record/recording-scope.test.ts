import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { request, rpc } from "../support/proxy-client.js";
import { type RecordProcess, startRecordProcess } from "../support/record-process.js";

const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJsZWFybmVyIn0.c2lnbmF0dXJl";
const sid = "sps_Q2xhc3NpY1Nlc3Npb25JZEZvclRlc3Rz";
const opaque = "ya29.opaque-access-token-0123456789";
const apiKey = "sk_live_abcdefghij0123456789";

describe("trace record: what is forwarded and what is recorded (real processes)", function () {
  this.timeout(120_000);
  let dir: string;
  let upstream: http.Server;
  let proxy: RecordProcess;
  let out: string;
  const seen: { path: string; host?: string; body: string }[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sp-record-scope-"));
    out = path.join(dir, "trace.jsonl");
    upstream = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        seen.push({ path: req.url ?? "", host: req.headers.host, body });
        if (req.url === "/metrics") {
          res.writeHead(200, { "content-type": "text/plain" }).end("coach_calls_total 1\n");
          return;
        }
        if (req.url === "/api/sessions") {
          res
            .writeHead(201, { "content-type": "application/json" })
            .end(JSON.stringify({ learningSessionId: sid, learner: JSON.parse(body).learner }));
          return;
        }
        // The MCP path echoes strings that hold secrets inside longer text.
        const id = (JSON.parse(body) as { id?: number }).id ?? null;
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            result: {
              structuredContent: {
                resume: `https://coach.example/resume?session=learner_${sid}&t=${jwt}`,
                // The request's own bearer token, echoed back (as a confused server might).
                echoedAuth: `token=${(req.headers.authorization ?? "").replace(/^Bearer /, "")};`,
                key: `key:${apiKey}`,
                [`cache-${jwt}`]: 1,
              },
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.address() as AddressInfo;
    proxy = await startRecordProcess([
      "--upstream",
      `http://127.0.0.1:${port}/mcp`,
      "--port",
      "0",
      "--out",
      out,
      "--redact-pattern",
      "sk_live_[A-Za-z0-9]+",
    ]);
  });
  after(async () => {
    await proxy?.stop();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a foreign Host with 403 and forwards nothing (DNS rebinding)", async () => {
    const before = seen.length;
    for (const host of [
      "evil.example",
      `evil.example:${proxy.port}`,
      `127.0.0.1:${proxy.port + 1}`,
    ]) {
      const answer = await request(`${proxy.origin}/metrics`, {
        method: "GET",
        headers: { host },
      });
      assert.equal(answer.status, 403, host);
      assert.deepEqual(JSON.parse(answer.body.toString()), { error: "forbidden", reason: "host" });
      const mark = await request(`${proxy.origin}/.trace/learner-message`, { headers: { host } });
      assert.equal(mark.status, 403, host);
    }
    // An absolute URL in the request line is not forwarded either.
    const absolute = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port: proxy.port,
        path: "http://evil.example/metrics",
        headers: { host: `127.0.0.1:${proxy.port}` },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(absolute, 400);
    assert.equal(seen.length, before, "nothing reached the upstream");
    for (const host of [
      `localhost:${proxy.port}`,
      `LOCALHOST:${proxy.port}`,
      `127.0.0.1:${proxy.port}`,
    ]) {
      const answer = await request(`${proxy.origin}/metrics`, { method: "GET", headers: { host } });
      assert.equal(answer.status, 200, host);
      // The upstream sees its own name, whatever the host called the proxy.
      assert.equal(seen.at(-1)?.host, `127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    }
  });

  it("forwards a launch on another path without recording it, and JSON that is not JSON-RPC on the MCP path neither", async () => {
    const launch = await request(`${proxy.origin}/api/sessions`, {
      body: JSON.stringify({ learner: "Ada Lovelace", locale: "en" }),
    });
    assert.equal(launch.status, 201);
    assert.match(seen.at(-1)?.body ?? "", /Ada Lovelace/, "forwarded unchanged");
    const plain = await request(proxy.url, { body: JSON.stringify({ learner: "Grace Hopper" }) });
    assert.equal(plain.status, 200);
  });

  it("redacts tokens and session ids inside longer strings, the Authorization token and --redact-pattern shapes", async () => {
    const answer = await request(proxy.url, {
      body: rpc(7, "tools/call", { name: "resume", arguments: { note: `auth:${opaque}` } }),
      headers: { authorization: `Bearer ${opaque}` },
    });
    assert.equal(answer.status, 200);
    // Forwarded untouched: the client gets the secrets, only the trace loses them.
    assert.ok(answer.body.toString().includes(opaque));
    await proxy.stop();
    const trace = await readFile(out, "utf8");
    for (const secret of [
      jwt,
      sid,
      opaque,
      apiKey,
      "Ada Lovelace",
      "Grace Hopper",
      "coach_calls_total",
    ])
      assert.ok(!trace.includes(secret), `${secret} in the trace:\n${trace}`);
    const events = trace
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { message?: Record<string, unknown> });
    // The JSON-RPC answer to the JSON that was not JSON-RPC, then the call and its answer.
    assert.equal(events.length, 3, trace);
    const result = JSON.stringify(events[2].message?.result);
    assert.match(result, /learner_redacted:session:[0-9a-f]{16}&t=redacted:token/);
    assert.match(result, /"echoedAuth":"token=redacted:token;"/);
    assert.match(result, /"key":"key:redacted:token"/);
    assert.match(result, /"cache-redacted:token":1/);
    assert.match(JSON.stringify(events[1].message), /"note":"auth:redacted:token"/);
  });
});

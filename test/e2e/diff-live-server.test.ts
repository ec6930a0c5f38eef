import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, startFixture, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";
import { runCli as skillpilot } from "../support/run-cli.js";

/** A pass-through HTTP proxy in front of the fixture that records every request's headers. */
async function recordingProxy(target: RuntimeFixture) {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: target.server.port,
        path: req.url,
        method: req.method,
        // The server accepts its own Host only (exact-origin guard): forward as a proxy would.
        headers: { ...req.headers, host: `127.0.0.1:${target.server.port}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("skillpilot diff --against http(s)://…/mcp: a live server's tools/list (L6, L12.2)", function () {
  this.timeout(60_000);
  let fx: RuntimeFixture;
  let dir: string;
  before(async () => {
    fx = await startFixture();
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-live-diff-"));
  });
  after(async () => {
    await fx?.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const era of ["auto", "modern", "legacy"])
    it(
      `lists this project's own running server through the official MCP client (--protocol-era ${era}) ` +
        "and finds it compatible, without invented scope or envelope changes",
      async () => {
        const result = await skillpilot([
          "diff",
          "--against",
          fx.server.mcpUrl,
          "--protocol-era",
          era,
          "--format",
          "json",
        ]);
        assert.equal(result.code, 0, result.stderr + result.stdout);
        const doc = JSON.parse(result.stdout) as {
          breaking: boolean;
          comparisons: { old: { file: string; format: string } }[];
          findings: { ruleId: string; severity: string }[];
        };
        assert.equal(doc.breaking, false);
        assert.deepEqual(doc.comparisons[0].old, { file: fx.server.mcpUrl, format: "tools-list" });
        assert.deepEqual(
          doc.findings.filter((f) => f.severity === "error"),
          [],
        );
        const ids = doc.findings.map((f) => f.ruleId);
        assert.ok(!ids.some((id) => id.startsWith("SECURITY_")), ids.join());
        assert.ok(!ids.some((id) => id.startsWith("ENVELOPE_")), ids.join());
        assert.ok(!ids.includes("TOOL_ADDED") && !ids.includes("TOOL_REMOVED"), ids.join());
      },
    );

  it(
    "compares scopes through the _meta.securitySchemes mirror the client keeps: a scope " +
      "added in the contract is a break against the live server",
    async () => {
      const snapshot = JSON.parse(
        await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8"),
      ) as { tools: { name: string; securitySchemes: { scopes: string[] }[] }[] };
      const tool = snapshot.tools.find((t) => t.name === "get_skillpilot_learning_context")!;
      tool.securitySchemes = [
        { ...tool.securitySchemes[0], scopes: ["coach.read", "coach.admin"] },
      ];
      const changed = path.join(dir, "scope.snapshot.json");
      await writeFile(changed, JSON.stringify(snapshot));
      const result = await skillpilot(["diff", fx.server.mcpUrl, changed, "--format", "github"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stdout,
        /title=SECURITY_SCOPE_ADDED::get_skillpilot_learning_context now requires OAuth scope coach\.admin/,
      );
    },
  );

  it("reports a real break between the live server and a changed contract", async () => {
    const snapshot = JSON.parse(
      await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8"),
    ) as { tools: { name: string }[] };
    snapshot.tools = snapshot.tools.filter((t) => t.name !== "start_skillpilot_memory_practice");
    const changed = path.join(dir, "changed.snapshot.json");
    await writeFile(changed, JSON.stringify(snapshot));
    const result = await skillpilot(["diff", fx.server.mcpUrl, changed, "--format", "github"]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /title=TOOL_REMOVED::tool start_skillpilot_memory_practice /);
  });

  it("sends every --header on each request (e.g. a bearer token)", async () => {
    const proxy = await recordingProxy(fx);
    // tools/list is public; a token it is sent with must still be valid (issue #12).
    const token = await fx.token("diff-reviewer");
    try {
      const result = await skillpilot([
        "diff",
        "--against",
        proxy.url,
        "--header",
        `Authorization: Bearer ${token}`,
        "--header",
        "X-Skillpilot-Trace: 42",
      ]);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      assert.ok(proxy.seen.length > 0);
      for (const headers of proxy.seen) {
        assert.equal(headers.authorization, `Bearer ${token}`);
        assert.equal(headers["x-skillpilot-trace"], "42");
      }
    } finally {
      await proxy.close();
    }
  });

  it("an unreachable server or a malformed --header is an input error (exit 2)", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await skillpilot(["diff", "--against", `http://127.0.0.1:${port}/mcp`]);
    assert.equal(down.code, 2);
    assert.match(down.stderr, /CONTRACT_INPUT_INVALID .*tools\/list over MCP failed/);
    const bad = await skillpilot(["diff", "--against", fx.server.mcpUrl, "--header", "no colon"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /expected "Name: value"/);
  });
});

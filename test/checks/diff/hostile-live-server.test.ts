import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerResponse } from "node:http";
import { startHostileMcpServer, toolsListHead } from "../../support/hostile-mcp-server.js";
import { runCliMeasured } from "../../support/peak-rss.js";
import { releaseProject, repoRoot, tempProject } from "../../support/temp-project.js";
import { treeDigest } from "../../release/support/tree-digest.js";

/** Write `chunk` to `res` for as long as the client reads, honouring backpressure. */
function endless(res: ServerResponse, chunk: string): void {
  let open = true;
  res.on("close", () => {
    open = false;
  });
  const pump = () => {
    while (open && res.write(chunk));
    if (open) res.once("drain", pump);
  };
  pump();
}

const tool = (name: string) => `{"name":"${name}","inputSchema":{"type":"object"}}`;

describe("checks/diff: a hostile live server costs at most the read caps (issue #32 item 1b)", function () {
  this.timeout(120_000);
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), "sp-hostile-live-"));
    await writeFile(path.join(root, "old.json"), `{"tools":[${tool("a")}]}`);
  });
  after(() => rm(root, { recursive: true, force: true }));

  /** `diff old.json URL` (legacy era) with `extra` flags; asserts exit 2, no stack, no write. */
  async function diffRefused(url: string, ...extra: string[]) {
    const before = await treeDigest(root);
    const run = await runCliMeasured(
      ["-C", root, "diff", "old.json", url, "--protocol-era", "legacy", ...extra],
      { env: { SKILLPILOT_NO_PROGRESS: "1" } },
    );
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack");
    assert.equal(await treeDigest(root), before, "diff writes nothing");
    return run;
  }
  const problems = (stdout: string) =>
    (JSON.parse(stdout) as { diagnostics: { ruleId: string; message: string }[] }).diagnostics;

  it("stops a never-ending tools/list body at the body cap, default and lowered", async () => {
    const server = await startHostileMcpServer((res, id) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(toolsListHead(id));
      endless(res, `${tool("t")},`.repeat(2000));
    });
    try {
      const run = await diffRefused(server.url, "--format", "json");
      const [problem, ...rest] = problems(run.stdout);
      assert.deepEqual(rest, []);
      assert.equal(problem.ruleId, "CONTRACT_INPUT_INVALID");
      assert.match(
        problem.message,
        /server sent more than 64 MB \(raise the cap with --max-body-mb\)/,
      );
      assert.ok(run.peakMb < 450, `peak RSS ${run.peakMb} MB`);
      const lowered = await diffRefused(server.url, "--format", "json", "--max-body-mb", "4");
      assert.match(problems(lowered.stdout)[0].message, /server sent more than 4 MB/);
      assert.ok(lowered.peakMb < 250, `peak RSS ${lowered.peakMb} MB`);
    } finally {
      await server.close();
    }
  });

  it("stops a listing that keeps paginating at the page cap, without asking for the next page", async () => {
    let asked = 0;
    const server = await startHostileMcpServer((res, id, cursor) => {
      asked++;
      const n = Number(cursor ?? 0);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`${toolsListHead(id)}${tool(`t${n}`)}],"nextCursor":"${n + 1}"}}`);
    });
    try {
      const run = await diffRefused(server.url, "--format", "json", "--max-pages", "25");
      assert.match(
        problems(run.stdout)[0].message,
        /tools\/list goes on beyond 25 pages \(raise the cap with --max-pages\)/,
      );
      assert.equal(asked, 25);
    } finally {
      await server.close();
    }
  });

  it("gives up on a server that drips its answer at the wall-clock cap", async () => {
    const server = await startHostileMcpServer((res, id) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(toolsListHead(id));
      const drip = setInterval(() => res.write(" "), 100);
      res.on("close", () => clearInterval(drip));
    });
    try {
      const run = await diffRefused(server.url, "--format", "json", "--live-timeout", "2");
      assert.match(
        problems(run.stdout)[0].message,
        /no complete answer within 2 s \(raise the cap with --live-timeout\)/,
      );
    } finally {
      await server.close();
    }
  });

  it("reports 100 000 tools of one name as one finding with its count", async () => {
    const body = (id: unknown) =>
      `${toolsListHead(id)}${Array.from({ length: 100_000 }, () => tool("same")).join(",")}]}}`;
    const server = await startHostileMcpServer((res, id) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body(id));
    });
    try {
      const run = await diffRefused(server.url);
      const lines = `${run.stdout}${run.stderr}`.split("\n").filter((l) => /listed/.test(l));
      assert.equal(lines.length, 1, run.stdout.slice(0, 2000));
      assert.match(lines[0], /CONTRACT_INPUT_INVALID.*tool same is listed 100000 times/);
    } finally {
      await server.close();
    }
  });

  it("verify --live reports the cap it hit as LIVE_SERVER_UNREACHABLE", async () => {
    const server = await startHostileMcpServer((res, id) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(toolsListHead(id));
      endless(res, `${tool("t")},`.repeat(2000));
    });
    const { root: project, cleanup } = await tempProject(repoRoot, releaseProject);
    try {
      const before = await treeDigest(project);
      const run = await runCliMeasured(
        ["-C", project, "verify", "--live", server.url, "--max-body-mb", "4", "--format", "json"],
        { env: { SKILLPILOT_NO_PROGRESS: "1" } },
      );
      assert.equal(run.code, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack");
      const found = problems(run.stdout).find((d) => d.ruleId === "LIVE_SERVER_UNREACHABLE");
      assert.match(found?.message ?? run.stdout, /server sent more than 4 MB/);
      assert.ok(run.peakMb < 250, `peak RSS ${run.peakMb} MB`);
      assert.equal(await treeDigest(project), before, "verify writes nothing");
    } finally {
      await server.close();
      await cleanup();
    }
  });
});

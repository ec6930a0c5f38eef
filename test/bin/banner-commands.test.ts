import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { connectClient } from "../runtime/support/mcp-clients.js";
import { runCli } from "../support/run-cli.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import { repoRoot, tempProject } from "../support/temp-project.js";

/** A shell without the server's environment: the data directory variable is unset there. */
const otherShell = { SKILLPILOT_DATA_DIR: "" };

/** The banner line's command after `npx skillpilot`, as argv, with NAME filled in. */
function printed(output: string, command: string, learner: string): string[] {
  const line = output.split("\n").find((l) => l.includes(`npx skillpilot ${command}`));
  assert.ok(line, `the banner prints no ${command} command:\n${output}`);
  const words = line.slice(line.indexOf("npx skillpilot ") + "npx skillpilot ".length).split(" ");
  assert.ok(
    words.every((w) => !w.startsWith("'")),
    "the test reads unquoted words only (temp paths)",
  );
  return words.map((w) => (w === "NAME" ? learner : w));
}

describe("the start banner's commands act for exactly the running server (issue #24 item 1; L14)", function () {
  this.timeout(120_000);
  let dir: string;
  let server: ServerProcess;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-banner-"));
    server = await startServerProcess([], { SKILLPILOT_DATA_DIR: path.join(dir, "elsewhere") });
    await server.printed("Start a learning session");
  });
  after(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("auth token and session start, run as printed in a shell without the server's environment, give a token and a session that server accepts", async () => {
    const token = await runCli(printed(server.output(), "auth token", "ada"), otherShell);
    assert.equal(token.code, 0, token.stderr);
    const session = await runCli(printed(server.output(), "session start", "ada"), otherShell);
    assert.equal(session.code, 0, session.stderr);
    const sid = session.stdout.trim();
    assert.match(sid, /^sps_/);
    const client = await connectClient(
      { mcpUrl: server.mcpUrl, authorize: async () => token.stdout.trim() },
      "2026-07-28 (SDK v2)",
    );
    try {
      const result = await client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
    } finally {
      await client.close();
    }
  });

  it("auth token and session start refuse, exit 2 with the way out and nothing created, to act on another data directory than the server on the port named", async () => {
    const project = await tempProject(repoRoot, ["release", "curricula", "contracts/ui"]);
    try {
      const port = new URL(server.origin).port;
      for (const command of [
        ["auth", "token", "--learner", "ada"],
        ["session", "start", "--learner", "ada"],
      ]) {
        const r = await runCli(["-C", project.root, ...command, "--port", port], otherShell);
        assert.equal(r.code, 2, `${command.join(" ")}: ${r.stdout}${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(`the server at ${server.origin} keeps its data elsewhere than .*data`),
        );
        assert.match(r.stderr, /start banner printed/);
        assert.equal(r.stdout, "", "no token, no session id");
        assert.equal(existsSync(path.join(project.root, "data")), false, "nothing created");
      }
    } finally {
      await project.cleanup();
    }
  });
});

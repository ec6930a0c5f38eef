import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../support/temp-project.js";

/** True when util-linux `script` (a pseudo-terminal for a command) is on this machine. */
function hasScript(): boolean {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("skillpilot start on a terminal: the banner comes first, the JSON log goes to stderr", function () {
  this.timeout(60_000);
  let dir: string;
  before(async function () {
    if (!hasScript()) this.skip();
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-tty-"));
  });
  after(() => dir && rm(dir, { recursive: true, force: true }));

  it("stdout (a terminal) starts with the MCP endpoint line and holds no log line", async () => {
    const errFile = path.join(dir, "stderr.txt");
    const cli = path.join(repoRoot, "bin/skillpilot.js");
    // `script` gives the CLI a terminal as stdout; its stderr goes to a file to tell them apart.
    const command = `'${process.execPath}' '${cli}' start --port 0 --data-dir '${dir}/data' 2>'${errFile}'`;
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("Start a learning session")) resolve();
      });
      void exited.then(() => reject(new Error(`start exited early:\n${out}`)));
    });
    process.kill(-(child.pid as number), "SIGTERM");
    await exited;
    const lines = out.split(/\r?\n/).filter(Boolean);
    assert.match(lines[0], /^SkillPilot Coach listening: MCP endpoint http:\/\//, out);
    assert.ok(!lines.some((l) => l.startsWith("{")), `no JSON log line on the terminal:\n${out}`);
    assert.match(await readFile(errFile, "utf8"), /^\{"level":30,/m, "the log went to stderr");
  });
});

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../support/temp-project.js";
import { runCli as skillpilot } from "../support/run-cli.js";
import { testConfidentialProfile } from "../runtime/support/test-issuer.js";

const cli = path.join(repoRoot, "bin/skillpilot.js");

/** Run the compiled CLI; resolves with exit code and output instead of throwing. */

describe("skillpilot start: start-up errors a person understands (issue #11)", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-start-errors-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("a port in use: names the port and the way out, exit 2, creates nothing", async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", () => resolve()));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const dataDir = path.join(dir, "data");
      const r = await skillpilot(["start", "--port", String(port), "--data-dir", dataDir]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
      assert.match(r.stderr, /--port N/);
      assert.doesNotMatch(r.stderr, /EADDRINUSE|\n\s+at /);
      assert.deepEqual(await readdir(dir), [], "no data directory, database or secrets");
    } finally {
      busy.close();
    }
  });

  it("an invalid --port or PORT is refused before anything starts", async () => {
    const flag = await skillpilot(["start", "--port", "abc", "--data-dir", dir]);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /port number from 0 to 65535.*got "abc"/);
    assert.doesNotMatch(flag.stderr, /NaN/);
    const env = await skillpilot(["start", "--data-dir", dir], { PORT: "99999" });
    assert.equal(env.code, 2);
    assert.match(env.stderr, /PORT must be a port number from 0 to 65535.*got "99999"/);
    assert.deepEqual(await readdir(dir), []);
  });

  it("a broken config file names file, line and column; no raw parser error", async () => {
    const file = path.join(dir, "broken.json");
    await writeFile(file, '{\n  "port": 3000,\n  "host": \n}\n');
    const r = await skillpilot(["start", "--config", file, "--data-dir", path.join(dir, "d")]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /broken\.json:4:1: not valid JSON \(ValueExpected\)/);
    assert.doesNotMatch(r.stderr, /SyntaxError|Unexpected token/);
  });

  it("unknown keys are refused with a did-you-mean, wrong types are located", async () => {
    const file = path.join(dir, "skillpilot.config.json");
    await writeFile(
      file,
      '{\n  "prot": 3000,\n  "sessionTtlSeconds": "12h",\n  "logLevel": "loud"\n}\n',
    );
    const r = await skillpilot(["start", "--config", file, "--data-dir", path.join(dir, "d")]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /skillpilot\.config\.json:2:3 unknown key "prot" \(did you mean "port"\?\)/,
    );
    assert.match(r.stderr, /:3:24 \/sessionTtlSeconds must be integer \(got "12h"\)/);
    assert.match(r.stderr, /:4:15 \/logLevel must be one of "fatal", .* \(got "loud"\)/);
    assert.deepEqual(await readdir(dir), ["skillpilot.config.json"]);
  });

  it("a bad environment value is one line naming the variable, exit 2, creates nothing", async () => {
    const r = await skillpilot(["start", "--port", "0", "--data-dir", path.join(dir, "d")], {
      LOG_LEVEL: "loud",
    });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'skillpilot: LOG_LEVEL must be one of "fatal", "error", "warn", "info", "debug", "trace", ' +
        '"silent" (got "loud")\n',
    );
    assert.deepEqual(await readdir(dir), []);
  });

  it("a log destination that cannot be created is refused before anything is created", async () => {
    const file = path.join(dir, "afile");
    await writeFile(file, "");
    for (const [log, reason] of [
      [path.join(file, "x.log"), `${file} is a file, not a directory`],
      [dir, "it is a directory"],
    ]) {
      const r = await skillpilot(["start", "--port", "0", "--data-dir", path.join(dir, "d")], {
        SKILLPILOT_LOG: log,
      });
      assert.equal(r.code, 2);
      assert.equal(r.stderr.split("\n").length, 2, r.stderr);
      assert.ok(r.stderr.startsWith(`skillpilot: cannot write the log to ${log}: ${reason};`));
      assert.match(r.stderr, /SKILLPILOT_LOG/);
    }
    assert.deepEqual(await readdir(dir), ["afile"]);
  });

  it("--data-dir naming a regular file is one clear line, exit 2, no raw EEXIST", async () => {
    const file = path.join(dir, "afile");
    await writeFile(file, "");
    for (const dataDir of [file, path.join(file, "sub")]) {
      const r = await skillpilot(["start", "--port", "0", "--data-dir", dataDir]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^skillpilot: cannot use the data directory .* is a file, not a /);
      assert.match(r.stderr, /--data-dir/);
      assert.doesNotMatch(r.stderr, /EEXIST|ENOTDIR|\n\s+at /);
    }
    assert.deepEqual(await readdir(dir), ["afile"]);
  });

  it("an unreachable PostgreSQL database is one line without the password, exit 2", async () => {
    const config = path.join(dir, "pg.config.json");
    const issuer = "https://issuer.test";
    const auth = { issuer, jwksUri: `${issuer}/jwks`, clientProfiles: [testConfidentialProfile] };
    await writeFile(config, JSON.stringify({ auth }));
    const r = await skillpilot(
      ["start", "--port", "0", "--config", config, "--data-dir", path.join(dir, "d")],
      {
        DATABASE_URL: "postgres://nobody:hunter2@127.0.0.1:1/coach",
        SKILLPILOT_LOG_HMAC_KEY: "k".repeat(43),
        SKILLPILOT_CAPABILITY_KEYS: JSON.stringify({
          activeKid: "k1",
          keys: { k1: Buffer.alloc(32, 7).toString("base64url") },
        }),
      },
    );
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^skillpilot: cannot connect to the PostgreSQL database postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/coach: .*ECONNREFUSED.*DATABASE_URL/,
    );
    assert.equal(r.stderr.split("\n").length, 2, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /hunter2|Acquire connection error|\n\s+at /);
    assert.deepEqual(await readdir(dir), ["pg.config.json"]);
  });

  it("a normal start prints no SDK warning, only where to connect", async () => {
    const child = spawn(
      process.execPath,
      [cli, "start", "--port", "0", "--data-dir", path.join(dir, "d")],
      {
        cwd: repoRoot,
        env: { ...process.env, SKILLPILOT_LOG: path.join(dir, "calls.log") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        if (/Start a learning session/.test(out)) resolve();
      });
      child.once("exit", () => reject(new Error(`exited early: ${out}${err}`)));
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    assert.doesNotMatch(out + err, /responseMode|warn/i);
    assert.match(out, /MCP endpoint http:\/\/127\.0\.0\.1:\d+\/mcp/);
    assert.doesNotMatch(out, /:0\//, "the start page names the bound port, not 0");
  });

  it("a lane published outside its allowlist: one line, exit 2, nothing created", async () => {
    const dataDir = path.join(dir, "data");
    const r = await skillpilot(["start", "--port", "0", "--data-dir", dataDir], {
      SKILLPILOT_CLAUDE_MCP_URL: "https://claude.attacker.example/mcp",
    });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(
      r.stderr,
      /lane claude: public URL https:\/\/claude\.attacker\.example\/mcp is outside its allowlist/,
    );
    assert.deepEqual(await readdir(dir), []);
  });

  it("--version prints toolchain, contract major and plugin package version", async () => {
    const r = await skillpilot(["--version"]);
    assert.equal(r.code, 0);
    assert.match(
      r.stdout,
      /^skillpilot \d+\.\d+\.\d+\ncontract major 1\nplugin skillpilot-coach \d+\.\d+\.\d+\n$/,
    );
  });
});

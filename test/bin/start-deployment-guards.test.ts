import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pluginIdentity } from "../../generated/identity.gen.js";
import { createTestIssuer, type TestIssuer } from "../runtime/support/test-issuer.js";
import { runCli as skillpilot } from "../support/run-cli.js";
import { repoRoot } from "../support/temp-project.js";

const pluginOrigin = new URL(pluginIdentity.mcpUrl).origin;

/**
 * The production rules of a server reached from beyond this machine are keyed on its public URLs
 * as well as on its bind address: behind a reverse proxy or a tunnel on the same machine the server
 * binds loopback, yet the world reaches it at `publicUrl`.
 */
describe("skillpilot start: deployment guards keyed on the public URL", function () {
  this.timeout(60_000);
  let dir: string;
  let issuer: TestIssuer;
  before(async () => {
    issuer = await createTestIssuer();
  });
  after(() => issuer.close());
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-deploy-guards-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** `skillpilot start` on loopback with `env`; refusals must be one line, exit 2, nothing made. */
  async function refused(env: NodeJS.ProcessEnv, line: RegExp): Promise<void> {
    const r = await skillpilot(
      ["start", "--host", "127.0.0.1", "--port", "0", "--data-dir", path.join(dir, "data")],
      env,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, line);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(await readdir(dir), []);
  }

  it("a loopback bind behind a proxy naming a foreign public URL is refused, not served with the development issuer", async () => {
    await refused(
      { SKILLPILOT_PUBLIC_URL: "https://evil.example" },
      /beyond loopback \(publicUrl https:\/\/evil\.example is not a loopback URL\) the server's MCP URL must be the plugin's one public MCP URL https:\/\/mcp-openai\.skillpilot\.com\/mcp .* serves https:\/\/evil\.example\/mcp/,
    );
  });

  it("the plugin's own public URL on a loopback bind still needs a real issuer", async () => {
    await refused(
      { SKILLPILOT_PUBLIC_URL: pluginOrigin },
      /the development issuer runs only on loopback with the embedded database \(here publicUrl https:\/\/mcp-openai\.skillpilot\.com is not a loopback URL\)/,
    );
  });

  it("a lane's public URL alone makes the server reachable from beyond this machine", async () => {
    await refused(
      { SKILLPILOT_CLAUDE_MCP_URL: "https://mcp-claude.skillpilot.com/mcp" },
      /beyond loopback \(lanePublicUrls\.claude https:\/\/mcp-claude\.skillpilot\.com\/mcp is not a loopback URL\)/,
    );
  });

  it("an issuer other than the plugin's oauthIssuer is refused: the resource metadata would name it to hosts", async () => {
    await refused(
      {
        SKILLPILOT_PUBLIC_URL: pluginOrigin,
        SKILLPILOT_OAUTH_ISSUER: "https://login.attacker.example",
        SKILLPILOT_OAUTH_JWKS_URI: "https://login.attacker.example/jwks",
      },
      /auth\.issuer must be the plugin's authorization server https:\/\/skillpilot\.com\/api\/openai\/v1 .* names https:\/\/login\.attacker\.example/,
    );
  });

  it("a plain-http issuer behind a public URL is refused (keys would travel in clear)", async () => {
    await refused(
      {
        SKILLPILOT_PUBLIC_URL: pluginOrigin,
        SKILLPILOT_OAUTH_ISSUER: "http://skillpilot.com/api/openai/v1",
        SKILLPILOT_OAUTH_JWKS_URI: "https://skillpilot.com/jwks",
      },
      /auth\.issuer must be an https URL when the server binds beyond loopback or is reached through a public URL/,
    );
  });

  it("an unreadable development-tunnel switch is one line naming the variable", async () => {
    await refused(
      { SKILLPILOT_DEVELOPMENT_TUNNEL: "maybe" },
      /^skillpilot: SKILLPILOT_DEVELOPMENT_TUNNEL must be/,
    );
  });

  /**
   * Start the compiled server with `env`, read the OAuth resource its protected-resource metadata
   * names (what hosts are told), then stop it.
   */
  function servedResource(env: NodeJS.ProcessEnv, args: string[] = []): Promise<string> {
    const child = spawn(
      process.execPath,
      [
        path.join(repoRoot, "bin/skillpilot.js"),
        "start",
        "--port",
        "0",
        "--data-dir",
        path.join(dir, "data"),
        ...args,
      ],
      { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    return new Promise((resolve, reject) => {
      let out = "";
      let err = "";
      let resource: string | undefined;
      let asked = false;
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        const m = /MCP endpoint (\S+)\/mcp/.exec(out);
        if (!m || asked) return;
        asked = true;
        void fetch(`${m[1]}/.well-known/oauth-protected-resource/mcp`)
          .then((r) => r.json() as Promise<{ resource: string }>)
          .then((doc) => (resource = doc.resource))
          .finally(() => child.kill("SIGTERM"));
      });
      child.once("exit", (code) =>
        resource ? resolve(resource) : reject(new Error(`exited ${code}: ${err}`)),
      );
    });
  }

  it("a development tunnel is an explicit switch: the tunnel's URL is served with the development issuer", async () => {
    assert.equal(
      await servedResource({
        SKILLPILOT_PUBLIC_URL: "https://dev-tunnel.example",
        SKILLPILOT_DEVELOPMENT_TUNNEL: "1",
      }),
      "https://dev-tunnel.example/mcp",
    );
  });

  it("the production shape passes: the plugin's URL and the plugin's issuer behind a loopback bind", async () => {
    const config = path.join(dir, "config.json");
    await writeFile(config, JSON.stringify({ publicUrl: pluginOrigin, auth: issuer.config() }));
    assert.equal(issuer.issuer, pluginIdentity.oauthIssuer);
    assert.equal(await servedResource({}, ["--config", config]), pluginIdentity.mcpUrl);
  });
});

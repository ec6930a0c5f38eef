import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { contractScopes } from "../../generated/tools.gen.js";
import { devIssuerKeyFile } from "../../runtime/auth/dev-issuer.js";
import { loadConfig } from "../../runtime/config/config.js";
import { createServices } from "../../runtime/boot.js";
import { connectClient } from "../runtime/support/mcp-clients.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { createTestIssuer, testConfidentialProfile } from "../runtime/support/test-issuer.js";

const run = promisify(execFile);
const cli = path.join(repoRoot, "bin/skillpilot.js");

describe("OAuth discovery and the development issuer (issue #12; L1)", function () {
  this.timeout(60_000);
  let fx: RuntimeFixture;
  before(async () => {
    fx = await startFixture({ auth: { domainVerificationToken: "openai-domain-token-123" } });
  });
  after(() => fx?.close());

  it("serves RFC 9728 protected resource metadata on the resource's own origin (L1)", async () => {
    const { settings } = fx.services.auth;
    assert.equal(
      settings.resourceMetadataUrl,
      `${fx.server.origin}/.well-known/oauth-protected-resource/mcp`,
    );
    for (const url of [
      settings.resourceMetadataUrl,
      `${fx.server.origin}/.well-known/oauth-protected-resource`,
    ]) {
      const res = await fetch(url);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      const doc = (await res.json()) as Record<string, unknown>;
      // Nothing else: an issuer's key set is not the resource's own `jwks_uri` (RFC 9728 §2).
      assert.deepEqual(Object.keys(doc).sort(), [
        "authorization_servers",
        "bearer_methods_supported",
        "resource",
        "resource_name",
        "scopes_supported",
      ]);
      assert.equal(doc.resource, fx.server.mcpUrl);
      assert.deepEqual(doc.authorization_servers, [settings.issuer]);
      assert.deepEqual(doc.scopes_supported, [...contractScopes]);
      assert.deepEqual(doc.bearer_methods_supported, ["header"]);
      assert.equal(doc.resource_name, "SkillPilot Coach");
      assert.equal(new URL(doc.resource as string).origin, new URL(url).origin);
    }
  });

  it("the development issuer publishes RFC 8414 metadata where standard clients look for it (issue #21 item 9)", async () => {
    const { settings } = fx.services.auth;
    const prm = (await (await fetch(settings.resourceMetadataUrl)).json()) as {
      authorization_servers: string[];
    };
    // RFC 8414 §3: the well-known suffix goes between the issuer's host and its (empty) path.
    const issuer = new URL(prm.authorization_servers[0]);
    const res = await fetch(new URL("/.well-known/oauth-authorization-server", issuer));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const doc = (await res.json()) as Record<string, unknown>;
    assert.equal(doc.issuer, prm.authorization_servers[0], "issuer is exactly the advertised one");
    assert.deepEqual(doc.scopes_supported, [...contractScopes]);
    assert.deepEqual(doc.response_types_supported, []);
    const jwks = (await (await fetch(doc.jwks_uri as string)).json()) as { keys: unknown[] };
    assert.equal(jwks.keys.length, 1, "jwks_uri names the issuer's key set");
  });

  it("serves the OpenAI apps domain-verification token as plain text", async () => {
    const res = await fetch(`${fx.server.origin}/.well-known/openai-apps-challenge`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    assert.equal(await res.text(), "openai-domain-token-123");
    const other = await startFixture();
    try {
      const none = await fetch(`${other.server.origin}/.well-known/openai-apps-challenge`);
      assert.equal(none.status, 404);
    } finally {
      await other.close();
    }
  });

  it("the development issuer: its JWKS is served and its key kept 0600 in the data directory", async () => {
    const jwks = (await (await fetch(`${fx.server.origin}/.well-known/jwks.json`)).json()) as {
      keys: { d?: string; kty: string }[];
    };
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0].d, undefined, "never the private part");
    const file = path.join(fx.services.config.dataDir, devIssuerKeyFile);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it("`skillpilot auth token` prints only a token the server accepts, for that learner", async () => {
    const sid = await fx.newSession("cli-learner");
    const { stdout, stderr } = await run(
      process.execPath,
      [
        cli,
        "auth",
        "token",
        "--learner",
        "cli-learner",
        "--port",
        String(fx.server.port),
        "--data-dir",
        fx.services.config.dataDir,
      ],
      { cwd: repoRoot },
    );
    assert.equal(stderr, "");
    assert.match(stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = stdout.trim();
    const client = await connectClient(fx, "2026-07-28 (SDK v2)", { authorize: async () => token });
    try {
      const r = await client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      });
      assert.equal(r.isError, undefined, JSON.stringify(r));
    } finally {
      await client.close();
    }
  });

  it("the development issuer refuses to run beyond loopback or on PostgreSQL; production needs an issuer", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-devissuer-"));
    try {
      for (const overrides of [
        { host: "0.0.0.0", dataDir: path.join(dir, "a") },
        { databaseUrl: "postgres://127.0.0.1:1/never", dataDir: path.join(dir, "b") },
      ]) {
        const config = await loadConfig(repoRoot, overrides, {});
        await assert.rejects(
          createServices(config),
          /development issuer runs only on loopback with the embedded database/,
        );
      }
      const { readdir } = await import("node:fs/promises");
      assert.deepEqual(await readdir(dir), [], "refused before anything was created");
      const started = await run(
        process.execPath,
        [cli, "start", "--host", "0.0.0.0", "--port", "0", "--data-dir", path.join(dir, "c")],
        {
          cwd: repoRoot,
        },
      ).then(
        () => ({ code: 0, stderr: "" }),
        (e: { code: number; stderr: string }) => e,
      );
      assert.equal(started.code, 2);
      assert.match(started.stderr, /production needs a real issuer/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a public MCP URL other than the plugin's beyond loopback (one origin, L1)", async () => {
    const issuer = await createTestIssuer();
    try {
      const config = await loadConfig(
        repoRoot,
        { host: "0.0.0.0", publicUrl: "https://staging.example.com", auth: issuer.config() },
        {},
      );
      await assert.rejects(createServices(config), /must be the plugin's one public MCP URL/);
    } finally {
      await issuer.close();
    }
  });

  it("beyond loopback the issuer and its JWKS URL must be https (keys travel the network)", async () => {
    const profiles = [testConfidentialProfile];
    for (const [auth, refused] of [
      [{ issuer: "http://issuer.example", jwksUri: "https://issuer.example/jwks" }, "issuer"],
      [{ issuer: "https://issuer.example", jwksUri: "http://issuer.example/jwks" }, "jwksUri"],
    ] as const) {
      const config = await loadConfig(
        repoRoot,
        { host: "0.0.0.0", auth: { ...auth, clientProfiles: profiles } },
        {},
      );
      await assert.rejects(
        createServices(config),
        new RegExp(`auth\\.${refused} must be an https URL when the server binds beyond loopback`),
      );
    }
  });
});

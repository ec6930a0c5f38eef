import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import { importJWK, SignJWT } from "jose";
import { connectClient, errorCode } from "../runtime/support/mcp-clients.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import {
  createTestIssuer,
  type TestIssuer,
  testConfidentialProfile,
} from "../runtime/support/test-issuer.js";

/** A 2026-07-28 JSON-RPC request to /mcp, as the SDK v2 client sends it. */
async function rpc(
  fx: RuntimeFixture,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; challenge: string | null; body: Record<string, unknown> }> {
  const res = await fetch(fx.server.mcpUrl, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-method": method,
      ...(typeof params.name === "string" && { "mcp-name": params.name }),
      ...(typeof params.uri === "string" && { "mcp-name": params.uri }),
      "mcp-protocol-version": "2026-07-28",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const text = await res.text();
  return {
    status: res.status,
    challenge: res.headers.get("www-authenticate"),
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** POST a ping with the given Authorization headers kept apart (fetch would join them). */
function rawPost(
  url: string,
  authorizations: string[],
): Promise<{ code: number; challenge: string }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        headers: [
          "host",
          new URL(url).host,
          "content-type",
          "application/json",
          "accept",
          "application/json, text/event-stream",
          "content-length",
          String(Buffer.byteLength(body)),
          ...authorizations.flatMap((value) => ["authorization", value]),
        ],
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            code: res.statusCode ?? 0,
            challenge: String(res.headers["www-authenticate"] ?? ""),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
const LEGACY_AUDIENCE = "https://mcp-coach-v1.skillpilot.com/mcp";

describe("OAuth resource server: bearer tokens on /mcp (issue #12; L1, L14, G5, C15)", function () {
  this.timeout(60_000);
  let issuer: TestIssuer;
  let jwks: Awaited<ReturnType<TestIssuer["serveJwks"]>>;
  let fx: RuntimeFixture;
  let sid: string;
  const token = (over: Partial<Parameters<TestIssuer["mint"]>[0]> = {}) =>
    issuer.mint({
      audience: fx.services.auth.settings.resource,
      subject: "ann",
      scopes: ["coach.read", "coach.write"],
      ...over,
    });
  const contextCall = (headers: Record<string, string> = {}) =>
    rpc(
      fx,
      "tools/call",
      { name: "get_skillpilot_learning_context", arguments: { learningSessionId: sid } },
      headers,
    );
  const refusedAs = async (headers: Record<string, string>, reason: RegExp) => {
    const r = await contextCall(headers);
    assert.equal(r.status, 401);
    assert.match(
      r.challenge ?? "",
      /^Bearer resource_metadata="[^"]+", scope="coach.read coach.write"/,
    );
    assert.match(r.challenge ?? "", /error="invalid_token"/);
    assert.match(r.challenge ?? "", reason);
    // The body says why too, and never echoes the token it refused.
    const why = (r.body.error as { data?: { reason?: string } }).data?.reason ?? "";
    assert.match(why, reason, JSON.stringify(r.body));
    const sent = (headers.authorization ?? "").split(" ").pop() ?? "";
    assert.ok(!JSON.stringify(r.body).includes(sent), "the token is not echoed");
  };

  before(async () => {
    issuer = await createTestIssuer("http://issuer.test");
    jwks = await issuer.serveJwks();
    fx = await startFixture({
      auth: {
        issuer: issuer.issuer,
        jwksUri: jwks.url,
        jwksCooldownSeconds: 0,
        clientProfiles: [testConfidentialProfile],
      },
    });
    sid = await fx.newSession("ann");
  });
  after(async () => {
    await fx?.close();
    await jwks?.close();
    await issuer?.close();
  });

  it("serves a valid token, and the SDK clients of both eras with it", async () => {
    const ok = await contextCall(bearer(await token()));
    assert.equal(ok.status, 200);
    assert.equal((ok.body.result as { isError?: boolean }).isError, undefined);
    for (const era of ["2026-07-28 (SDK v2)", "2025 stateless (SDK v1)"] as const) {
      const valid = await token();
      const client = await connectClient(fx, era, { authorize: async () => valid });
      try {
        const r = await client.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
        });
        assert.equal(r.isError, undefined, era);
      } finally {
        await client.close();
      }
    }
  });

  it("a tool call without a token: a tool result carrying the challenge in _meta", async () => {
    const r = await contextCall();
    assert.equal(r.status, 200, "the form a host acts on is a tool result, not HTTP 401");
    const result = r.body.result as {
      isError: boolean;
      content: { text: string }[];
      _meta: Record<string, string[]>;
    };
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /^AUTHENTICATION_REQUIRED: /);
    const [challenge] = result._meta["mcp/www_authenticate"];
    assert.equal(
      challenge,
      `Bearer resource_metadata="${fx.services.auth.settings.resourceMetadataUrl}", ` +
        'scope="coach.read coach.write"',
    );
    const rows = await fx.db("idempotency_records").count("* as n").first();
    assert.equal(Number(rows?.n), 0, "nothing was written");
  });

  it("other protected requests without a token: HTTP 401 with the challenge header", async () => {
    const setLevel = await rpc(fx, "logging/setLevel", { level: "debug" });
    assert.equal(setLevel.status, 401);
    assert.match(
      (setLevel.body.error as { data?: { reason?: string } }).data?.reason ?? "",
      /carries no access token/,
    );
    assert.equal(
      setLevel.challenge,
      `Bearer resource_metadata="${fx.services.auth.settings.resourceMetadataUrl}", ` +
        'scope="coach.read coach.write"',
    );
    const get = await fetch(fx.server.mcpUrl, { headers: { accept: "text/event-stream" } });
    assert.equal(get.status, 401);
    assert.match(get.headers.get("www-authenticate") ?? "", /resource_metadata=/);
  });

  it("public without a token: discovery, tools/list and the UI pages", async () => {
    const list = await rpc(fx, "tools/list", {});
    assert.equal(list.status, 200);
    const tools = (list.body.result as { tools: { name: string }[] }).tools;
    assert.equal(tools.length, 10);
    const resources = await rpc(fx, "resources/list", {});
    const uri = (resources.body.result as { resources: { uri: string }[] }).resources[0].uri;
    const read = await rpc(fx, "resources/read", { uri });
    assert.equal(read.status, 200);
    // Every resource is a public UI page; any other URI is simply not found.
    const other = await rpc(fx, "resources/read", { uri: "file:///etc/passwd" });
    assert.equal((other.body.error as { code: number }).code, -32602);
  });

  it("refuses malformed, expired, not-yet-valid, wrong-issuer and wrong-audience tokens", async () => {
    const now = Math.floor(Date.now() / 1000);
    await refusedAs(bearer("not-a-jwt"), /malformed/);
    await refusedAs({ authorization: "Basic YW5uOnNlY3JldA==" }, /not a Bearer token/);
    await refusedAs(bearer(await token({ issuedAt: now - 7200, ttlSeconds: 600 })), /expired/);
    await refusedAs(bearer(await token({ notBefore: now + 600 })), /nbf claim/);
    await refusedAs(bearer(await token({ issuedAt: now + 600, notBefore: now })), /future/);
    await refusedAs(bearer(await token({ issuer: "http://issuer.test/" })), /iss claim/);
    await refusedAs(bearer(await token({ audience: "https://other.example/mcp" })), /aud claim/);
    await refusedAs(bearer(await token({ audience: LEGACY_AUDIENCE })), /aud claim/);
    const resource = fx.services.auth.settings.resource;
    await refusedAs(
      bearer(await token({ audience: [resource, LEGACY_AUDIENCE] })),
      /more than one audience/,
    );
  });

  it("refuses alg none, HS256 keyed with the public key, and an unknown kid", async () => {
    const resource = fx.services.auth.settings.resource;
    const claims = {
      iss: issuer.issuer,
      aud: resource,
      sub: "ann",
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 600,
      scope: "coach.read coach.write",
      client_id: testConfidentialProfile.clientId,
    };
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    await refusedAs(
      bearer(`${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`),
      /algorithm|malformed/,
    );
    // The classic confusion: an HS256 MAC keyed with the issuer's public key in PEM form.
    const published = JSON.parse(await readFile(issuer.jwksFile, "utf8")) as {
      keys: Record<string, string>[];
    };
    const pem = createPublicKey({ key: published.keys[0], format: "jwk" }).export({
      type: "spki",
      format: "pem",
    });
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: published.keys[0].kid })
      .sign(new TextEncoder().encode(String(pem)));
    await refusedAs(bearer(hs), /algorithm/);
    const rogue = await createTestIssuer(issuer.issuer);
    const forged = await rogue.mint({ audience: resource, subject: "ann", scopes: ["coach.read"] });
    await rogue.close();
    await refusedAs(bearer(forged), /signing key is unknown/);
    const imported = await importJWK(published.keys[0], "ES256");
    assert.ok(imported, "the published key is a usable public key (the refusals are not vacuous)");
  });

  it("follows JWKS key rotation: a token of a newly published key verifies", async () => {
    await issuer.rotate();
    const before = jwks.fetches();
    const r = await contextCall(bearer(await token()));
    assert.equal(r.status, 200);
    assert.ok(jwks.fetches() > before, "the unknown kid made the server fetch the JWKS again");
    await issuer.retireOldKeys();
    assert.equal((await contextCall(bearer(await token()))).status, 200);
  });

  it("refuses a token of a client outside the active client profiles (L14)", async () => {
    await refusedAs(
      bearer(await token({ clientId: "some-other-client" })),
      /client is not allowed/,
    );
  });

  it("refuses odd claims a careless issuer might sign: subject, client and token type", async () => {
    for (const sub of ["", 123, { id: "ann" }, "x".repeat(256)])
      await refusedAs(bearer(await token({ claims: { sub } })), /sub claim is not acceptable/);
    await refusedAs(
      bearer(await token({ claims: { client_id: 5, azp: testConfidentialProfile.clientId } })),
      /client claim is not acceptable/,
    );
    await refusedAs(
      bearer(await token({ claims: { azp: "some-other-client" } })),
      /two different clients/,
    );
    await refusedAs(bearer(await token({ typ: "logout+jwt" })), /another kind of token/);
    // The types access tokens come with, or none: served.
    for (const typ of ["at+jwt", "application/at+jwt", "JWT", null])
      assert.equal((await contextCall(bearer(await token({ typ })))).status, 200, String(typ));
    const viaAzp = await token({
      claims: { client_id: undefined, azp: testConfidentialProfile.clientId },
    });
    assert.equal((await contextCall(bearer(viaAzp))).status, 200, "azp alone names the client");
  });

  it("refuses a request with two Authorization headers (400 invalid_request), either order", async () => {
    const valid = await token();
    for (const pair of [
      [`Bearer ${valid}`, "Bearer garbage"],
      ["Bearer garbage", `Bearer ${valid}`],
      // An empty first (or second) header does not make the other one the only one (issue #21
      // item 6).
      ["", `Bearer ${valid}`],
      [`Bearer ${valid}`, ""],
      ["", ""],
    ]) {
      const status = await rawPost(fx.server.mcpUrl, pair);
      assert.equal(status.code, 400);
      assert.match(status.challenge, /error="invalid_request"/);
    }
  });

  it("refuses a signed token whose typ header is not a string: 401 invalid_token, never a 5xx (issue #21 item 6)", async () => {
    for (const typ of [5, true, ["at+jwt"], { v: "at+jwt" }])
      await refusedAs(bearer(await token({ typ })), /another kind of token/);
  });

  it("refuses base64url padding on a token, which a JWS never carries (issue #21 item 6; RFC 7515)", async () => {
    const valid = await token();
    assert.equal((await contextCall(bearer(valid))).status, 200, "the control");
    for (const padded of [`${valid}=`, `${valid}==`]) await refusedAs(bearer(padded), /malformed/);
  });

  it("asks a step-up only for contract scopes, never echoing unknown ones (C15)", async () => {
    const limited = await token({ scopes: ["coach.read", "coach.readx", 'evil"\r\nX: 1'] });
    const r = await rpc(
      fx,
      "tools/call",
      {
        name: "complete_skillpilot_goal",
        arguments: {
          learningSessionId: sid,
          expectedStateVersion: 1,
          clientRequestId: "5f0c6c52-93c5-4f7e-9d54-5a8a51f1d1b0",
          decision: "achieved",
        },
      },
      bearer(limited),
    );
    const result = r.body.result as {
      _meta: Record<string, string[]>;
      content: { text: string }[];
    };
    assert.match(result.content[0].text, /^INSUFFICIENT_SCOPE: /);
    const [challenge] = result._meta["mcp/www_authenticate"];
    assert.match(challenge, /scope="coach.read coach.write", error="insufficient_scope"/);
    assert.doesNotMatch(challenge, /readx|evil/);
  });

  it("L14: clientInfo and User-Agent select and authorize nothing", async () => {
    const pretend = {
      "user-agent": "ChatGPT/1.2025 (openai-mcp; +https://openai.com/bot)",
      "x-openai-session": "trusted",
    };
    const noToken = await contextCall(pretend);
    assert.match(
      JSON.stringify(noToken.body),
      /AUTHENTICATION_REQUIRED/,
      "a host's claims are no credential",
    );
    const listed = await rpc(fx, "tools/list", {}, pretend);
    const plain = await rpc(fx, "tools/list", {});
    assert.deepEqual(listed.body, plain.body, "the contract does not depend on who says they ask");
    const client = await connectClient(fx, "2025 stateless (SDK v1)", { authorize: false });
    try {
      const r = await client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      });
      assert.equal(errorCode(r), "AUTHENTICATION_REQUIRED");
    } finally {
      await client.close();
    }
  });

  it("never logs a token", async () => {
    const secret = await token();
    await contextCall(bearer(secret));
    await contextCall(bearer(`${secret.slice(0, -4)}AAAA`));
    const log = await readFile(fx.logFile, "utf8");
    assert.ok(!log.includes(secret.split(".")[2]), "no signature in the log");
    assert.ok(!log.includes(secret.split(".")[1]), "no claims in the log");
  });
});

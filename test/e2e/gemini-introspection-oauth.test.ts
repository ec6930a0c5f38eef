import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { auth, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  authorizeHeadless,
  nativeCimdProfile as desktopProfile,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../runtime/support/oidc-authorization-server.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { CALLBACK, MemoryProvider } from "./support/memory-oauth-provider.js";

describe("the gemini lane against a real authorization server's token introspection (oidc-provider, RFC 7662)", function () {
  this.timeout(60_000);
  let as: TestAuthorizationServer;
  let fx: RuntimeFixture;
  let resource = "";
  // Every introspection request passes through here on its way to the authorization server.
  let introspections = 0;
  let proxy: http.Server;
  const introspector = { clientId: "skillpilot-resource-server", clientSecret: "rs-test-secret" };
  before(async () => {
    as = await startAuthorizationServer({
      resource: () => resource,
      opaqueResource: () => resource,
      profile: desktopProfile,
      scopes: ["coach.read", "coach.write"],
      introspectionClient: introspector,
    });
    const target = new URL(as.introspectionEndpoint);
    proxy = http.createServer((req, res) => {
      introspections++;
      const forward = http.request(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    fx = await startFixture({
      auth: {
        issuer: as.issuer,
        jwksUri: as.jwksUri,
        clientProfiles: [desktopProfile],
        introspection: {
          endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/token/introspection`,
          clientId: introspector.clientId,
          clientSecret: introspector.clientSecret,
          lanes: ["gemini"],
        },
      },
    });
  });
  after(async () => {
    await fx?.close();
    await as?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it("the official client signs in from the 401 at connect, gets an opaque token, and its tool call succeeds once introspected", async () => {
    const lane = fx.services.auth.settings.lanes.find((l) => l.id === "gemini")!;
    resource = lane.resource;
    const url = new URL(lane.mcpPath, fx.server.mcpUrl);
    const sid = await fx.newSession("gwen", "en", "gemini");
    const provider = new MemoryProvider(as.issuer);
    const newClient = () =>
      new Client(
        { name: "skillpilot-e2e-gemini", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await assert.rejects(newClient().connect(transport), /Unauthorized/i);
    const [authorizationUrl] = provider.authorizationUrls;
    assert.equal(authorizationUrl.searchParams.get("resource"), lane.resource);
    const callback = await authorizeHeadless(authorizationUrl, "gwen", CALLBACK);
    assert.equal(
      await auth(provider, {
        serverUrl: url,
        resourceMetadataUrl: new URL(lane.resourceMetadataUrl),
        authorizationCode: callback.searchParams.get("code") ?? "",
        iss: callback.searchParams.get("iss") ?? undefined,
      }),
      "AUTHORIZED",
    );
    const token = provider.tokens()!.access_token;
    assert.equal(token.split(".").length, 1, "an opaque token, not a JWT");
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    try {
      const result = await client.callTool({
        name: "get_skillpilot_learning_context",
        arguments: { learningSessionId: sid },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
    } finally {
      await client.close();
    }
    assert.equal(introspections, 1, "the token was introspected once, then remembered");
    // The same opaque token serves no other lane (those verify the issuer's JWTs).
    const other = await fetch(new URL("/claude/mcp", fx.server.mcpUrl), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    await other.body?.cancel();
    assert.equal(other.status, 401);
  });
});

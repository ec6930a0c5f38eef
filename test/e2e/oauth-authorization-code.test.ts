import assert from "node:assert/strict";
import {
  auth,
  Client,
  extractWWWAuthenticateParams,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { CALLBACK, MemoryProvider } from "./support/memory-oauth-provider.js";
import {
  authorizeHeadless,
  nativeCimdProfile as desktopProfile,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../runtime/support/oidc-authorization-server.js";

describe("OAuth end to end: authorization code + PKCE S256 from a real authorization server (issue #12)", function () {
  this.timeout(60_000);
  let as: TestAuthorizationServer;
  let fx: RuntimeFixture;
  // The resource the authorization server issues tokens for (the lane a test signs in to).
  let resource = "";
  before(async () => {
    as = await startAuthorizationServer({
      resource: () => resource,
      profile: desktopProfile,
      scopes: ["coach.read", "coach.write"],
    });
    fx = await startFixture({
      auth: { issuer: as.issuer, jwksUri: as.jwksUri, clientProfiles: [desktopProfile] },
    });
  });
  beforeEach(() => {
    resource = fx.services.auth.settings.resource;
  });
  after(async () => {
    await fx?.close();
    await as?.close();
  });

  it("the official client signs in from the tool-result challenge, then its tool call succeeds", async () => {
    const sid = await fx.newSession("ann");
    const provider = new MemoryProvider(as.issuer);
    const url = new URL(fx.server.mcpUrl);
    const connect = async () => {
      const client = new Client(
        { name: "skillpilot-e2e", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
      return client;
    };
    // Not signed in: listing works, a tool call answers with the challenge a host acts on.
    const anonymous = await connect();
    assert.equal((await anonymous.listTools()).tools.length, 10);
    const refused = (await anonymous.callTool({
      name: "get_skillpilot_learning_context",
      arguments: { learningSessionId: sid },
    })) as { isError?: boolean; _meta?: Record<string, string[]> };
    await anonymous.close();
    assert.equal(refused.isError, true);
    const challenge = refused._meta?.["mcp/www_authenticate"]?.[0] ?? "";
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(
      new Response(null, { status: 401, headers: { "www-authenticate": challenge } }),
    );
    assert.ok(resourceMetadataUrl, challenge);
    // The host starts account linking from the challenge: discovery, PKCE S256 authorization.
    assert.equal(await auth(provider, { serverUrl: url, resourceMetadataUrl, scope }), "REDIRECT");
    const [authorizationUrl] = provider.authorizationUrls;
    assert.equal(authorizationUrl.searchParams.get("code_challenge_method"), "S256");
    assert.equal(authorizationUrl.searchParams.get("resource"), fx.server.mcpUrl);
    assert.equal(authorizationUrl.searchParams.get("client_id"), desktopProfile.clientId);
    const callback = await authorizeHeadless(authorizationUrl, "ann", CALLBACK);
    assert.equal(
      await auth(provider, {
        serverUrl: url,
        resourceMetadataUrl,
        authorizationCode: callback.searchParams.get("code") ?? "",
        iss: callback.searchParams.get("iss") ?? undefined,
      }),
      "AUTHORIZED",
    );
    // Signed in as ann: the session launched for ann works, through the same official client.
    const client = await connect();
    try {
      const result = await client.callTool({
        name: "get_skillpilot_learning_context",
        arguments: { learningSessionId: sid },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      assert.equal(
        (result.structuredContent as { learningSessionId: string }).learningSessionId,
        sid,
      );
      // A session of another learner stays closed to ann's token.
      const bobs = await fx.newSession("bob");
      const foreign = (await client.callTool({
        name: "get_skillpilot_learning_context",
        arguments: { learningSessionId: bobs },
      })) as { content: { text: string }[] };
      assert.match(foreign.content[0].text, /^SESSION_SUBJECT_MISMATCH/);
    } finally {
      await client.close();
    }
  });

  // Each lane that authenticates at connect, on its own: a pass on one says nothing of another.
  for (const [laneId, learner] of [
    ["claude", "cleo"],
    ["mcp", "milo"],
  ] as const)
    it(`on the ${laneId} lane the official client starts OAuth from the 401 at connect, signs in for that lane's resource, and its tool call succeeds; the lane lists MCP Apps metadata only`, async () => {
      const lane = fx.services.auth.settings.lanes.find((l) => l.id === laneId)!;
      resource = lane.resource;
      const url = new URL(lane.mcpPath, fx.server.mcpUrl);
      const sid = await fx.newSession(learner, "en", laneId);
      const provider = new MemoryProvider(as.issuer);
      const newClient = () =>
        new Client(
          { name: `skillpilot-e2e-${laneId}`, version: "1.0.0" },
          { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        );
      // Not signed in: connecting is refused with 401, and the client starts authorization itself.
      const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
      await assert.rejects(newClient().connect(transport), /Unauthorized/i);
      const [authorizationUrl] = provider.authorizationUrls;
      assert.ok(authorizationUrl, "the client was sent to the authorization server");
      assert.equal(authorizationUrl.searchParams.get("resource"), lane.resource);
      assert.equal(authorizationUrl.searchParams.get("code_challenge_method"), "S256");
      const callback = await authorizeHeadless(authorizationUrl, learner, CALLBACK);
      assert.equal(
        await auth(provider, {
          serverUrl: url,
          resourceMetadataUrl: new URL(lane.resourceMetadataUrl),
          authorizationCode: callback.searchParams.get("code") ?? "",
          iss: callback.searchParams.get("iss") ?? undefined,
        }),
        "AUTHORIZED",
      );
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
      try {
        const { tools } = await client.listTools();
        const widget = tools.find((t) => t.name === "render_skillpilot_goal_visualization")!;
        assert.ok((widget._meta as { ui?: { resourceUri?: string } }).ui?.resourceUri);
        for (const t of tools)
          assert.deepEqual(
            Object.keys(t._meta ?? {}).filter((k) => k.startsWith("openai/")),
            [],
            `${t.name} carries no openai/* keys on the ${laneId} lane`,
          );
        const result = await client.callTool({
          name: "get_skillpilot_learning_context",
          arguments: { learningSessionId: sid },
        });
        assert.equal(result.isError, undefined, JSON.stringify(result));
      } finally {
        await client.close();
      }
      // A token of this lane serves no other lane: the openai endpoint refuses it (one audience).
      const token = provider.tokens()!.access_token;
      const other = await fetch(fx.server.mcpUrl, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      assert.equal(other.status, 401);
      assert.match(other.headers.get("www-authenticate") ?? "", /invalid_token/);
    });
});

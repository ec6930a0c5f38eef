import assert from "node:assert/strict";
import net from "node:net";
import { auth, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { BrowserContext, Page } from "playwright-core";
import type { LaneSettings } from "../../runtime/lanes/lane.js";
import { CALLBACK, MemoryProvider } from "../e2e/support/memory-oauth-provider.js";
import {
  authorizeHeadless,
  nativeCimdProfile as desktopProfile,
  startAuthorizationServer,
  startPageClientMetadata,
  type TestAuthorizationServer,
} from "../runtime/support/oidc-authorization-server.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { useBrowser } from "./support/browser.js";

/**
 * Issue #31 (L11, L14): a learner of each host starts from that host's start page alone. In a real
 * browser: `/start?lane=…` → sign-in on a real OIDC issuer's login page → launch; then the host's
 * side, the official MCP client authorized at the same issuer for that lane's resource, calls a
 * tool with the session id the page showed, on that lane's endpoint. Gemini's lane gets opaque
 * tokens, which the server introspects (RFC 7662). Sign out ends the issuer's session too
 * (RP-Initiated Logout), so the next person on the computer logs in afresh.
 */
describe("a session from each host's start page: real sign-in, launch, a tool call on that lane (issue #31)", function () {
  this.timeout(60_000);
  const chromium = useBrowser();
  const startPageClient = "skillpilot-start-page";
  const introspector = { clientId: "skillpilot-resource-server", clientSecret: "rs-secret" };
  let as: TestAuthorizationServer;
  let fx: RuntimeFixture;
  let context: BrowserContext | undefined;
  /** The resource the issuer mints tokens for now: the lane being walked. */
  let resource = "";
  let geminiResource = "";

  before(async () => {
    // The start page's redirect URIs name the server's origin: pick its port first.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    as = await startAuthorizationServer({
      resource: () => resource,
      opaqueResource: () => geminiResource,
      profile: desktopProfile,
      scopes: ["coach.read", "coach.write"],
      introspectionClient: introspector,
      clients: [startPageClientMetadata(startPageClient, port)],
    });
    fx = await startFixture({
      port,
      auth: {
        issuer: as.issuer,
        jwksUri: as.jwksUri,
        clientProfiles: [desktopProfile],
        signIn: { clientId: startPageClient },
        introspection: {
          endpoint: as.introspectionEndpoint,
          clientId: introspector.clientId,
          clientSecret: introspector.clientSecret,
          lanes: ["gemini"],
        },
      },
    });
    geminiResource = laneOf("gemini").resource;
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  after(async () => {
    await fx?.close();
    await as?.close();
  });

  const laneOf = (id: string): LaneSettings => {
    const lane = fx.services.auth.settings.lanes.find((l) => l.id === id);
    assert.ok(lane, `lane ${id} is served`);
    return lane;
  };

  /** Sign in on the lane's start page as `account`, start a session, and return its id. */
  async function startFromPage(page: Page, lane: string, account: string): Promise<string> {
    const query = lane === "openai" ? "" : `?lane=${lane}`;
    await page.goto(`${fx.server.origin}/start${query}`);
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin === as.issuer);
    assert.equal(await page.title(), "Test issuer: sign in");
    await page.getByLabel("Account").fill(account);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/start" && url.origin === fx.server.origin);
    assert.equal(
      new URL(page.url()).searchParams.get("lane"),
      lane === "openai" ? null : lane,
      "back on the start page of the lane the sign-in began on",
    );
    assert.equal(await page.locator("#signed-in").textContent(), `Signed in as ${account}`);
    await page.getByRole("button", { name: "Start session" }).click();
    await page.waitForSelector("#result .panel.ok");
    // The ready panel names the lane's own MCP URL: the one the learner adds to their host.
    assert.match(
      (await page.locator("#result").textContent()) ?? "",
      new RegExp(laneOf(lane).resource.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")),
    );
    return ((await page.locator("#session-id").textContent()) ?? "").trim();
  }

  /** The official client, authorized at the issuer as `account` for the lane's resource. */
  async function hostClient(lane: LaneSettings, account: string): Promise<Client> {
    resource = lane.resource;
    const url = new URL(lane.resource);
    const provider = new MemoryProvider(as.issuer);
    const resourceMetadataUrl = new URL(lane.resourceMetadataUrl);
    assert.equal(await auth(provider, { serverUrl: url, resourceMetadataUrl }), "REDIRECT");
    const [authorizationUrl] = provider.authorizationUrls;
    assert.equal(authorizationUrl.searchParams.get("resource"), lane.resource);
    const callback = await authorizeHeadless(authorizationUrl, account, CALLBACK);
    assert.equal(
      await auth(provider, {
        serverUrl: url,
        resourceMetadataUrl,
        authorizationCode: callback.searchParams.get("code") ?? "",
        iss: callback.searchParams.get("iss") ?? undefined,
      }),
      "AUTHORIZED",
    );
    const client = new Client(
      { name: `skillpilot-e2e-${lane.id}`, version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    return client;
  }

  for (const id of ["openai", "claude", "gemini", "mcp"]) {
    it(`${id}: the start page's session serves the signed-in learner on the ${id} lane's endpoint, and no other`, async () => {
      const lane = laneOf(id);
      const account = `learner-${id}`;
      context = await chromium.browser.newContext({ locale: "en-US" });
      const sid = await startFromPage(await context.newPage(), id, account);
      const row = await fx.db("sessions").where({ session_id: sid }).first();
      assert.equal(row.subject, account);
      assert.equal(row.subject_issuer, as.issuer);
      assert.equal(row.lane ?? "openai", id);
      const client = await hostClient(lane, account);
      try {
        const result = await client.callTool({
          name: "get_skillpilot_learning_context",
          arguments: { learningSessionId: sid },
        });
        assert.equal(result.isError, undefined, JSON.stringify(result));
        assert.equal(
          (result.structuredContent as { learningSessionId?: string }).learningSessionId,
          sid,
        );
      } finally {
        await client.close();
      }
      // Another lane's endpoint does not serve it, and sends its learner to its own start page.
      const other = laneOf(id === "claude" ? "openai" : "claude");
      const elsewhere = await hostClient(other, account);
      try {
        const refused = await elsewhere.callTool({
          name: "get_skillpilot_learning_context",
          arguments: { learningSessionId: sid },
        });
        assert.equal(refused.isError, true);
        const said = JSON.stringify(refused);
        assert.match(said, /SESSION_NOT_FOUND/);
        const page = `/start${other.id === "openai" ? "" : `?lane=${other.id}`}.`;
        assert.ok(said.includes(page), `names the ${other.id} lane's start page: ${said}`);
      } finally {
        await elsewhere.close();
      }
    });
  }

  it("Sign out ends the issuer's session too: the next person on this browser logs in afresh", async () => {
    context = await chromium.browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await startFromPage(page, "claude", "learner-shared");
    await page.getByRole("button", { name: "Sign out" }).click();
    // The issuer's own logout page (OpenID Connect RP-Initiated Logout) asks to confirm.
    await page.waitForURL((url) => url.origin === as.issuer);
    await page.getByRole("button", { name: /yes/i }).click();
    await page.waitForURL((url) => url.pathname === "/start" && url.origin === fx.server.origin);
    assert.equal(new URL(page.url()).searchParams.get("lane"), "claude");
    assert.equal(await page.locator("#signed-in").count(), 0);
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin === as.issuer);
    assert.equal(await page.title(), "Test issuer: sign in", "the issuer asks who signs in");
  });
});

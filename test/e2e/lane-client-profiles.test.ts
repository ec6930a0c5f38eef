import assert from "node:assert/strict";
import type { ClientProfile } from "../../runtime/auth/client-profiles.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import {
  createTestIssuer,
  type TestIssuer,
  testConfidentialProfile,
} from "../runtime/support/test-issuer.js";

// The ChatGPT connector on the openai lane only; a Claude client (CIMD) on the claude lane only; a
// third client without `lanes` everywhere.
const chatgpt: ClientProfile = { ...testConfidentialProfile, lanes: ["openai"] };
const claude: ClientProfile = {
  name: "claude-desktop",
  kind: "public-cimd",
  clientId: "https://claude.example/oauth/client-metadata.json",
  redirectUris: ["http://127.0.0.1/callback/claude"],
  tokenEndpointAuthMethod: "none",
  pkce: "S256",
  lanes: ["claude"],
};
const anywhere: ClientProfile = {
  ...testConfidentialProfile,
  name: "any-lane",
  clientId: "any-lane-client",
};

describe("provider lanes: client profiles per lane (L14, §6)", function () {
  this.timeout(60_000);
  let issuer: TestIssuer;
  let fx: RuntimeFixture;
  before(async () => {
    issuer = await createTestIssuer("http://issuer.test");
    fx = await startFixture({ auth: issuer.config([chatgpt, claude, anywhere]) });
  });
  after(async () => {
    await fx?.close();
    await issuer?.close();
  });

  /** tools/list on a lane with a token of `client` for that lane's resource. */
  async function listOn(laneId: string, client: ClientProfile): Promise<number> {
    const lane = fx.services.auth.settings.lanes.find((l) => l.id === laneId)!;
    const token = await issuer.mint({
      audience: lane.resource,
      subject: "lane-profile-learner",
      scopes: fx.services.auth.settings.scopesSupported,
      clientId: client.clientId,
    });
    const res = await fetch(new URL(lane.mcpPath, fx.server.mcpUrl), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    await res.body?.cancel();
    return res.status;
  }

  it("a client limited to some lanes is refused on the others, even with a token for that lane's resource", async () => {
    assert.equal(await listOn("openai", chatgpt), 200);
    assert.equal(await listOn("claude", chatgpt), 401);
    assert.equal(await listOn("mcp", chatgpt), 401);
    assert.equal(await listOn("claude", claude), 200);
    assert.equal(await listOn("openai", claude), 401);
    for (const lane of ["openai", "claude", "mcp"]) assert.equal(await listOn(lane, anywhere), 200);
  });

  it("refuses to start with a profile that names a lane schemas/lanes.json does not declare", async () => {
    const stray = { ...anywhere, name: "stray", clientId: "stray-client", lanes: ["copilot"] };
    await assert.rejects(
      startFixture({ auth: issuer.config([chatgpt, stray]) }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, "AUTH_CONFIG_INVALID");
        assert.match(e.message, /client profile "stray" names lane "copilot"/);
        return true;
      },
    );
  });
});

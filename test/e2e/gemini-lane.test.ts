import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { LaneSettings } from "../../runtime/lanes/lane.js";
import { connectClient, errorCode } from "../runtime/support/mcp-clients.js";
import {
  type IntrospectionServer,
  startIntrospectionServer,
} from "../runtime/support/introspection-server.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";

type Wire = Record<string, unknown>;

describe("the gemini lane: opaque access tokens verified by token introspection (RFC 7662)", function () {
  this.timeout(60_000);
  let idp: IntrospectionServer;
  let fx: RuntimeFixture;
  let lane: LaneSettings;
  before(async () => {
    idp = await startIntrospectionServer();
    fx = await startFixture({
      auth: {
        introspection: {
          endpoint: idp.endpoint,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          lanes: ["gemini"],
          acceptedClientIds: ["gemini-enterprise"],
        },
      },
    });
    lane = fx.services.auth.settings.lanes.find((l) => l.id === "gemini")!;
  });
  after(async () => {
    await fx?.close();
    await idp?.close();
  });
  beforeEach(() => {
    idp.mode = "active";
  });

  const issue = (subject: string, scopes = fx.services.auth.settings.scopesSupported) =>
    idp.issue({ subject, audience: lane.resource, scopes, clientId: "gemini-enterprise" });
  const laneUrl = () => new URL(lane.mcpPath, fx.server.mcpUrl).href;

  /** A raw tools/list on the gemini lane with `token`. */
  async function listWith(token: string) {
    const res = await fetch(laneUrl(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  }

  it("the official client calls a tool with an introspected ya29 token: the write lands, a cache hit asks no more", async () => {
    const sid = await fx.newSession("gina", "en", "gemini");
    const token = issue("gina");
    assert.match(token, /^ya29\./);
    const before = idp.requests;
    const client = await connectClient(laneUrl(), "2026-07-28 (SDK v2)", {
      authorize: async () => token,
    });
    try {
      const context = (await client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      })) as { isError?: boolean; structuredContent: Wire };
      assert.equal(context.isError, undefined, JSON.stringify(context));
      const ctx = context.structuredContent as {
        stateVersion: number;
        options: { payload: string }[];
      };
      const chosen = await client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        option: ctx.options[0].payload,
      });
      assert.equal(chosen.isError, undefined, JSON.stringify(chosen));
    } finally {
      await client.close();
    }
    assert.equal(idp.requests - before, 1, "one introspection for every request of the same token");
    const receipts = await fx.db("receipts").where({ session_id: sid }).select();
    assert.ok(receipts.length > 0, "the database shows the write");
  });

  it("a tool without its scope is refused with INSUFFICIENT_SCOPE, changing nothing", async () => {
    const sid = await fx.newSession("gail", "en", "gemini");
    const token = issue("gail", ["coach.read"]);
    const client = await connectClient(laneUrl(), "2026-07-28 (SDK v2)", {
      authorize: async () => token,
    });
    try {
      const read = await client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      });
      assert.equal(read.isError, undefined, "coach.read suffices for a read");
      const refused = await client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: 1,
        clientRequestId: randomUUID(),
        option: "any",
      });
      assert.equal(errorCode(refused), "INSUFFICIENT_SCOPE");
    } finally {
      await client.close();
    }
    assert.equal((await fx.db("receipts").where({ session_id: sid }).select()).length, 0);
  });

  it("the endpoint down, answering 5xx or not JSON: 503 with Retry-After, never a pass", async () => {
    for (const mode of ["down", "server-error", "not-json"] as const) {
      idp.mode = mode;
      const refused = await listWith(issue("gina"));
      assert.equal(refused.status, 503, mode);
      assert.ok(refused.headers.get("retry-after"), mode);
      assert.doesNotMatch(refused.text, /"tools"/);
    }
  });

  it("an inactive token, another audience or an unknown token: 401 invalid_token with the lane's challenge", async () => {
    for (const mode of ["inactive", "other-audience"] as const) {
      idp.mode = mode;
      const refused = await listWith(issue("gina"));
      assert.equal(refused.status, 401, mode);
      const challenge = refused.headers.get("www-authenticate") ?? "";
      assert.match(challenge, /error="invalid_token"/);
      assert.match(challenge, new RegExp(`resource_metadata="${lane.resourceMetadataUrl}"`));
    }
    idp.mode = "active";
    assert.equal((await listWith("ya29.never-issued")).status, 401);
  });

  it("the lane takes no JWTs, and its tokens serve no other lane", async () => {
    const jwt = await fx.token("gina", { audience: lane.resource });
    assert.equal((await listWith(jwt)).status, 401);
    const res = await fetch(fx.server.mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${issue("gina")}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    await res.body?.cancel();
    assert.equal(res.status, 401);
  });
});

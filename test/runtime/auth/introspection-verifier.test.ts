import assert from "node:assert/strict";
import {
  createIntrospectionVerifier,
  IntrospectionUnavailable,
} from "../../../runtime/auth/introspection-verifier.js";
import { TokenRejected } from "../../../runtime/auth/token-verifier.js";
import {
  type IntrospectionServer,
  startIntrospectionServer,
} from "../support/introspection-server.js";

const resource = "http://127.0.0.1:4000/gemini/mcp";

describe("token introspection (RFC 7662) of opaque access tokens", () => {
  let idp: IntrospectionServer;
  before(async () => {
    idp = await startIntrospectionServer();
  });
  after(() => idp.close());
  beforeEach(() => {
    idp.mode = "active";
    idp.requests = 0;
  });

  const verifier = (overrides: { clientSecret?: string; cacheMaxSeconds?: number } = {}) =>
    createIntrospectionVerifier({
      endpoint: idp.endpoint,
      issuer: "https://idp.example",
      clientId: idp.clientId,
      clientSecret: overrides.clientSecret ?? idp.clientSecret,
      resource,
      acceptedClientIds: ["gemini-enterprise"],
      cacheMaxSeconds: overrides.cacheMaxSeconds ?? 60,
      cacheMaxEntries: 100,
      clockSkewSeconds: 0,
      timeoutMs: 2000,
    });
  const issue = (clientId = "gemini-enterprise") =>
    idp.issue({ subject: "gina", audience: resource, scopes: ["coach.read"], clientId });

  it("accepts an active token for this resource: sub, scopes, client, exp; a cache hit asks no more", async () => {
    const v = verifier();
    const token = issue();
    const verified = await v.verify(token);
    assert.equal(verified.subject, "gina");
    assert.equal(verified.issuer, "https://idp.example", "a subject of the configured issuer");
    assert.deepEqual(verified.scopes, ["coach.read"]);
    assert.equal(verified.clientId, "gemini-enterprise");
    assert.ok(verified.expiresAt > Date.now() / 1000);
    await v.verify(token);
    assert.equal(idp.requests, 1, "the second check is a cache hit");
    await v.verify(issue());
    assert.equal(idp.requests, 2, "another token is introspected");
  });

  it("remembers nothing with cacheMaxSeconds 0", async () => {
    const v = verifier({ cacheMaxSeconds: 0 });
    const token = issue();
    await v.verify(token);
    await v.verify(token);
    assert.equal(idp.requests, 2);
  });

  it("refuses an inactive token, another audience, and (without aud) a client not accepted", async () => {
    const v = verifier();
    idp.mode = "inactive";
    await assert.rejects(
      v.verify(issue()),
      (e) => e instanceof TokenRejected && /not active/.test(e.message),
    );
    await assert.rejects(v.verify("ya29.unknown"), TokenRejected);
    idp.mode = "other-audience";
    await assert.rejects(v.verify(issue()), /not issued for this resource/);
    idp.mode = "no-audience";
    assert.equal((await v.verify(issue())).subject, "gina", "an accepted client without aud");
    await assert.rejects(v.verify(issue("someone-else")), /client is not allowed/);
    const refused = issue();
    idp.mode = "inactive";
    await assert.rejects(v.verify(refused), TokenRejected);
    idp.mode = "active";
    assert.equal((await v.verify(refused)).subject, "gina", "a refusal is not remembered");
  });

  it("fails closed: down, 5xx, non-JSON, or its own client refused are unavailable, never a pass", async () => {
    const v = verifier();
    for (const mode of ["down", "server-error", "not-json"] as const) {
      idp.mode = mode;
      await assert.rejects(v.verify(issue()), IntrospectionUnavailable, mode);
    }
    idp.mode = "active";
    await assert.rejects(
      verifier({ clientSecret: "wrong" }).verify(issue()),
      IntrospectionUnavailable,
    );
  });

  it("an error never carries the token or the client secret", async () => {
    const token = issue();
    idp.mode = "server-error";
    await assert.rejects(verifier().verify(token), (e: Error) => {
      assert.ok(!e.message.includes(token) && !e.message.includes(idp.clientSecret));
      return true;
    });
  });
});

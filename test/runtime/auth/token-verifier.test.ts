import assert from "node:assert/strict";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTVerifyGetKey, SignJWT } from "jose";
import { createTokenVerifier, TokenRejected } from "../../../runtime/auth/token-verifier.js";
import { PolicyGeneration } from "../../../runtime/auth/verified-token-cache.js";

const issuer = "https://issuer.test";
const resource = "https://coach.test/mcp";
const T = 1_900_000_000;

describe("the JWT verifier's cache of verified tokens: no weaker check, never past exp (L1, L14)", () => {
  let sign: (claims: {
    iat?: number;
    exp?: number;
    aud?: string;
    iss?: string;
    client?: string;
    sub?: string;
  }) => Promise<string>;
  let jwks: JWTVerifyGetKey;
  before(async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1" }] });
    sign = (c) =>
      new SignJWT({ client_id: c.client ?? "client-a", scope: "coach.read" })
        .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "at+jwt" })
        .setIssuer(c.iss ?? issuer)
        .setAudience(c.aud ?? resource)
        .setSubject(c.sub ?? "ann")
        .setIssuedAt(c.iat ?? T)
        .setExpirationTime(c.exp ?? T + 60)
        .sign(privateKey);
  });

  /** A verifier on a clock the test moves, counting the signature checks (key look-ups). */
  function verifier(options: { memoSize?: number } = {}) {
    const clock = { now: T };
    const allowed = new Set(["client-a", "client-b"]);
    let freshAfter = new Map<string, number>();
    const generation = new PolicyGeneration();
    let signatureChecks = 0;
    const v = createTokenVerifier({
      issuer,
      resource,
      keys: (header, token) => {
        signatureChecks++;
        return jwks(header, token);
      },
      algorithms: ["ES256"],
      clockSkewSeconds: 30,
      clientAllowed: (id) => allowed.has(id),
      freshAfter: (id) => freshAfter.get(id),
      generation,
      now: () => clock.now,
      ...(options.memoSize !== undefined && { memoSize: options.memoSize }),
    });
    return {
      v,
      clock,
      allowed,
      generation,
      checks: () => signatureChecks,
      requireFresh: (client: string, afterMs: number) => {
        freshAfter = new Map([[client, afterMs]]);
        generation.advance();
      },
    };
  }
  const refused = (promise: Promise<unknown>, reason: RegExp) =>
    assert.rejects(promise, (e: Error) => e instanceof TokenRejected && reason.test(e.message));

  it("a cached token skips the signature check and answers the same caller", async () => {
    const { v, checks } = verifier();
    const token = await sign({});
    const first = await v.verify(token);
    assert.equal(checks(), 1);
    const again = await v.verify(token);
    assert.equal(checks(), 1, "no second signature check");
    assert.deepEqual(again, first);
    assert.deepEqual(
      { subject: first.subject, clientId: first.clientId, expiresAt: first.expiresAt },
      { subject: "ann", clientId: "client-a", expiresAt: T + 60 },
    );
  });

  it("a miss is verified in full: a forged signature, another audience or issuer are refused next to a cached token", async () => {
    const { v } = verifier();
    const token = await sign({});
    await v.verify(token);
    const [head, body, sig] = token.split(".");
    const forged = `${head}.${body}.${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`;
    await refused(v.verify(forged), /signature/);
    await refused(v.verify(await sign({ aud: "https://other.test/mcp" })), /aud/);
    await refused(v.verify(await sign({ iss: "https://evil.test" })), /iss/);
  });

  it("never serves a cached token at or past its exp: re-verified there, refused past the clock skew", async () => {
    const { v, clock, checks } = verifier();
    const token = await sign({ exp: T + 60 });
    await v.verify(token);
    clock.now = T + 59.999;
    await v.verify(token);
    assert.equal(checks(), 1, "just before exp: from the cache");
    clock.now = T + 60;
    await v.verify(token);
    assert.equal(checks(), 2, "at exp: verified again (within the skew), not from the cache");
    await v.verify(token);
    assert.equal(checks(), 3, "and not remembered past its exp");
    clock.now = T + 91;
    await refused(v.verify(token), /expired/);
  });

  it("holds a bounded number of tokens: one pushed out is verified again", async () => {
    const { v, checks } = verifier({ memoSize: 2 });
    const [a, b, c] = await Promise.all(["ann", "bob", "cy"].map((sub) => sign({ sub })));
    for (const t of [a, b, c]) await v.verify(t);
    assert.equal(checks(), 3);
    await v.verify(c);
    await v.verify(b);
    assert.equal(checks(), 3, "the two most recent are cached");
    await v.verify(a);
    assert.equal(checks(), 4, "the oldest was pushed out");
  });

  it("a retired client's cached token is refused at once", async () => {
    const { v, allowed } = verifier();
    const token = await sign({ client: "client-b" });
    await v.verify(token);
    allowed.delete("client-b");
    await refused(v.verify(token), /client is not allowed/);
  });

  it("a policy change (a client's profile activated again) refuses its cached tokens issued before at once", async () => {
    const { v, requireFresh, checks } = verifier();
    const token = await sign({ iat: T - 10 });
    await v.verify(token);
    await v.verify(token);
    assert.equal(checks(), 1);
    requireFresh("client-a", T * 1000);
    await refused(v.verify(token), /sign in again/);
    // A token issued after the re-activation is served, and remembered again.
    const fresh = await sign({ iat: T + 1 });
    await v.verify(fresh);
    await v.verify(fresh);
    assert.equal(checks(), 3);
  });

  it("a generation that moves while a token is verified leaves it out of the cache", async () => {
    const { v, generation, checks } = verifier();
    const token = await sign({});
    const pending = v.verify(token);
    generation.advance();
    await pending;
    await v.verify(token);
    assert.equal(checks(), 2);
  });
});

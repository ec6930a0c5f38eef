import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { createTestIssuer, type TestIssuer } from "../runtime/support/test-issuer.js";
import { sealedCookieMutations } from "./support/mutations.js";
import { databaseRows, TestClock } from "./support/security-server.js";

/** Beyond loopback the server answers only as the plugin's one public MCP origin. */
const PUBLIC_HOST = "mcp-openai.skillpilot.com";
const START_PAGE_CLIENT = "skillpilot-start-page";
const SIGN_IN = "skillpilot_signin";
const FLOW = "skillpilot_signin_flow";
/** How long a sign-in lasts (runtime/http/sign-in.ts). */
const SIGNED_IN_MS = 8 * 3600_000;

/**
 * The plugin's authorization server as the server reaches it with `fetch`: its OpenID discovery
 * document and a token endpoint that redeems the codes `approve` issued for an ID token signed by
 * the test issuer's key (which the server trusts through its JWKS file). Beyond loopback the issuer
 * must be the plugin's own https one, so it is answered in process instead of on the network.
 */
function standInIssuer(issuer: TestIssuer) {
  const codes = new Map<string, { sub: string; nonce: string }>();
  const original = globalThis.fetch;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json" },
    });
  /** A discovery document to answer instead of the issuer's own (undefined: its own). */
  let discovery: Record<string, unknown> | undefined;
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${issuer.issuer}/`)) return original(input, init);
    const path = url.slice(issuer.issuer.length);
    if (path === "/.well-known/openid-configuration")
      return json(
        discovery ?? {
          issuer: issuer.issuer,
          authorization_endpoint: `${issuer.issuer}/authorize`,
          token_endpoint: `${issuer.issuer}/token`,
          authorization_response_iss_parameter_supported: true,
        },
      );
    const code = new URLSearchParams(String(init?.body ?? "")).get("code") ?? "";
    const grant = codes.get(code);
    codes.delete(code);
    if (path !== "/token" || !grant) return json({ error: "invalid_grant" }, 400);
    return json({
      id_token: await issuer.mint({
        audience: START_PAGE_CLIENT,
        subject: grant.sub,
        scopes: [],
        typ: null,
        claims: { nonce: grant.nonce, scope: undefined, client_id: undefined, nbf: undefined },
      }),
    });
  };
  return {
    /** The learner `sub` logs in for the authorization request at `location`: the code to deliver. */
    approve(location: URL, sub: string): string {
      const code = randomBytes(16).toString("base64url");
      codes.set(code, { sub, nonce: location.searchParams.get("nonce") ?? "" });
      return code;
    },
    /** Answer discovery with `document` from now on (undefined: the issuer's own again). */
    discover(document: Record<string, unknown> | undefined): void {
      discovery = document;
    },
    restore: () => {
      globalThis.fetch = original;
    },
  };
}

/** `name=value` of each cookie a response sets. */
const setCookies = (res: Response): Map<string, string> =>
  new Map(
    res.headers.getSetCookie().map((c) => {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      return [pair.slice(0, i), pair.slice(i + 1)] as const;
    }),
  );

/**
 * The start page's sign-in cookie stands in for the launch secret: a browser signed in at the
 * issuer launches its own sessions on a server reachable beyond loopback. Here the server is bound
 * beyond loopback behind a TLS proxy's public origin, signs in at a real OpenID provider, and every
 * altered, misused or expired cookie gets the launch API's 401 (or the exact refusal of its case),
 * shows nobody signed in on the start page, and writes nothing.
 */
describe("security: start page sign-in cookies (L14)", () => {
  let issuer: TestIssuer;
  let issuerAnswers: ReturnType<typeof standInIssuer>;
  let fx: RuntimeFixture;
  let clock: TestClock;
  /** The genuine cookie, minted at `signedInAt` for `subject`. */
  let genuine: string;
  let signedInAt: number;
  const subject = "signin-subject-7c1d";

  const at = (pathAndQuery: string, init: RequestInit = {}) =>
    fetch(`${fx.server.origin}${pathAndQuery}`, {
      redirect: "manual",
      ...init,
      headers: { host: PUBLIC_HOST, ...(init.headers as Record<string, string>) },
    });
  /** The sign-in: start page → the issuer's login → callback; the sealed cookie it sets. */
  const signIn = async (login: string): Promise<string> => {
    const start = await at("/start/sign-in?lang=en");
    assert.equal(start.status, 302, await start.text());
    const flow = setCookies(start).get(FLOW);
    assert.ok(flow);
    const authorization = new URL(start.headers.get("location") ?? "");
    const answer = new URLSearchParams({
      code: issuerAnswers.approve(authorization, login),
      state: authorization.searchParams.get("state") ?? "",
      iss: issuer.issuer,
    });
    const back = await at(`/start/callback?${answer}`, { headers: { cookie: `${FLOW}=${flow}` } });
    assert.equal(back.headers.get("location"), "/start?lang=en");
    const cookie = setCookies(back).get(SIGN_IN);
    assert.ok(cookie, "signed in");
    return cookie;
  };
  const launch = (cookie: string | undefined, body: Record<string, unknown> = { locale: "en" }) =>
    at("/api/sessions", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(cookie !== undefined && { cookie: `${SIGN_IN}=${cookie}` }),
      },
      body: JSON.stringify(body),
    });
  /** Whether the start page shows the learner signed in with `cookie`. */
  const greets = async (cookie: string) =>
    (
      await (await at("/start?lang=en", { headers: { cookie: `${SIGN_IN}=${cookie}` } })).text()
    ).includes(`"signedInAs":${JSON.stringify(subject)}`);
  /** The launch with `cookie` is refused with `status` and `code`, nobody is greeted, nothing written. */
  const assertRefused = async (
    cookie: string,
    expected: { status: number; code: string } = { status: 401, code: "unauthorized" },
    body?: Record<string, unknown>,
  ) => {
    const before = await databaseRows(fx.db);
    const res = await launch(cookie, body);
    const answer = (await res.json()) as { error?: string; code?: string };
    assert.equal(res.status, expected.status, JSON.stringify(answer));
    assert.equal(answer.error ?? answer.code, expected.code);
    assert.deepEqual(await databaseRows(fx.db), before, "nothing written");
    if (expected.status === 401) assert.equal(await greets(cookie), false, "nobody signed in");
  };

  before(async function () {
    this.timeout(30_000);
    issuer = await createTestIssuer();
    issuerAnswers = standInIssuer(issuer);
    // Bound beyond loopback: the launch API demands the launch secret or a signed-in browser.
    fx = await startFixture({
      host: "127.0.0.2",
      auth: { ...issuer.config(), signIn: { clientId: START_PAGE_CLIENT } },
    });
    clock = new TestClock(fx);
    signedInAt = clock.freeze();
    genuine = await signIn(subject);
    clock.release();
  });
  after(async () => {
    issuerAnswers?.restore();
    await fx?.close();
    await issuer?.close();
  });

  it("control: without the cookie the launch is refused; with it, the signed-in learner launches", async () => {
    await assertRefused("");
    assert.equal(await greets(genuine), true);
    const res = await launch(genuine);
    assert.equal(res.status, 201, await res.text());
  });

  describe("every position class, truncated, extended", () => {
    for (const m of sealedCookieMutations)
      it(`refuses the sign-in cookie: ${m.label}`, async () => {
        const mutated = m.apply(genuine);
        assert.notEqual(mutated, genuine);
        await assertRefused(mutated);
      });
  });

  describe("replay across learner and purpose", () => {
    it("refuses my cookie with a launch body naming another learner", () =>
      assertRefused(
        genuine,
        { status: 400, code: "INVALID_INPUT" },
        {
          learner: "someone-else",
          locale: "en",
        },
      ));
    it("refuses the sign-in flow's cookie presented as a sign-in", async () => {
      const start = await at("/start/sign-in?lang=en");
      const flow = setCookies(start).get(FLOW);
      assert.ok(flow);
      await assertRefused(flow);
    });
    it("refuses the sign-in cookie presented as a flow at the callback", async () => {
      const before = await databaseRows(fx.db);
      const res = await at("/start/callback?code=x&state=y", {
        headers: { cookie: `${FLOW}=${genuine}` },
      });
      assert.equal(res.headers.get("location"), "/start?lang=en&signin=failed");
      assert.equal(setCookies(res).get(SIGN_IN), undefined, "nobody signed in");
      assert.deepEqual(await databaseRows(fx.db), before);
    });
  });

  describe("expiry edges (the server clock frozen and moved)", () => {
    after(() => clock.release());
    it("refuses the cookie exactly at its expiry", () => {
      clock.freeze(signedInAt + SIGNED_IN_MS);
      return assertRefused(genuine);
    });
    it("refuses the cookie one second past its expiry", () => {
      clock.freeze(signedInAt + SIGNED_IN_MS + 1000);
      return assertRefused(genuine);
    });
    it("refuses the cookie on an instance whose clock runs a day ahead", () => {
      clock.freeze(signedInAt + 86_400_000);
      return assertRefused(genuine);
    });
    it("control: one second before its expiry the cookie still launches", async () => {
      clock.freeze(signedInAt + SIGNED_IN_MS - 1000);
      const res = await launch(genuine);
      assert.equal(res.status, 201, await res.text());
    });
  });

  describe("an issuer whose discovery document names no endpoints", () => {
    let fresh: RuntimeFixture | undefined;
    after(async () => {
      issuerAnswers.discover(undefined);
      await fresh?.close();
    });
    it("refuses the sign-in as the issuer not answering (no 500), signs nobody in, writes nothing", async () => {
      // A fresh server: the first one keeps the discovery document it already read.
      fresh = await startFixture({
        host: "127.0.0.2",
        auth: { ...issuer.config(), signIn: { clientId: START_PAGE_CLIENT } },
      });
      const before = await databaseRows(fresh.db);
      for (const document of [
        {},
        { authorization_endpoint: "javascript:alert(1)", token_endpoint: 7 },
      ]) {
        issuerAnswers.discover(document);
        const res: Response = await fetch(`${fresh.server.origin}/start/sign-in?lang=en`, {
          redirect: "manual",
          headers: { host: PUBLIC_HOST },
        });
        assert.equal(res.status, 302, await res.text());
        assert.equal(res.headers.get("location"), "/start?lang=en&signin=unreachable");
        assert.equal(setCookies(res).get(FLOW), undefined, "no sign-in flow started");
      }
      assert.deepEqual(await databaseRows(fresh.db), before);
    });
  });
});

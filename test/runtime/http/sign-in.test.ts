import assert from "node:assert/strict";
import net from "node:net";
import {
  authorizeHeadless,
  nativeCimdProfile as desktopProfile,
  startAuthorizationServer,
  startPageClientMetadata,
  type TestAuthorizationServer,
} from "../support/oidc-authorization-server.js";
import { type RuntimeFixture, startFixture } from "../support/runtime-fixture.js";
import { createTestIssuer } from "../support/test-issuer.js";

const startPageClient = "skillpilot-start-page";
const otherIssuer = "https://issuer.other.test";

/** A free loopback port: the start page's redirect URI names the server's origin. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** `name=value` of each cookie a response sets (an empty value clears it). */
const setCookies = (res: Response): Map<string, string> =>
  new Map(
    res.headers.getSetCookie().map((c) => {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      return [pair.slice(0, i), pair.slice(i + 1)] as const;
    }),
  );

/**
 * The start page's sign-in against a real issuer (oidc-provider, which sends `iss` on every
 * authorization response), with `advertise` choosing whether its discovery document promises it.
 */
function signInAgainst(advertise: boolean, offerLogout = true) {
  let as: TestAuthorizationServer;
  let fx: RuntimeFixture;

  before(async () => {
    const port = await freePort();
    let resource = "";
    as = await startAuthorizationServer({
      resource: () => resource,
      profile: desktopProfile,
      scopes: ["coach.read", "coach.write"],
      advertiseIssParameter: advertise,
      offerLogout,
      clients: [startPageClientMetadata(startPageClient, port)],
    });
    fx = await startFixture({
      port,
      auth: {
        issuer: as.issuer,
        jwksUri: as.jwksUri,
        clientProfiles: [desktopProfile],
        signIn: { clientId: startPageClient },
      },
    });
    resource = fx.services.auth.settings.resource;
  });
  after(async () => {
    await fx?.close();
    await as?.close();
  });

  /**
   * Start a sign-in, log in at the issuer, let `edit` change the authorization response and
   * deliver it to the callback in the browser that started it. Returns the callback's answer.
   */
  async function callback(edit: (response: URL) => void): Promise<{ res: Response; url: URL }> {
    const start = await fetch(`${fx.server.origin}/start/sign-in?lang=en`, { redirect: "manual" });
    assert.equal(start.status, 302);
    const flow = setCookies(start).get("skillpilot_signin_flow");
    assert.ok(flow, "the sign-in seals its flow into a cookie");
    const response = await authorizeHeadless(
      new URL(start.headers.get("location") ?? ""),
      "subject-2b71e0",
      `${fx.server.origin}/start/callback`,
    );
    assert.equal(response.searchParams.get("iss"), as.issuer, "the issuer sends iss");
    edit(response);
    const res = await fetch(response, {
      redirect: "manual",
      headers: { cookie: `skillpilot_signin_flow=${flow}` },
    });
    return { res, url: response };
  }

  /** The sign-in cookie a callback answer sets, or undefined. */
  const signedInCookie = (res: Response) => setCookies(res).get("skillpilot_signin") || undefined;

  async function assertRefused(res: Response): Promise<void> {
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/start?lang=en&signin=failed");
    assert.equal(signedInCookie(res), undefined, "no sign-in cookie on a refused callback");
    assert.equal(setCookies(res).get("skillpilot_signin_flow"), "", "the flow is used up");
    const page = await (await fetch(`${fx.server.origin}/start?lang=en`)).text();
    assert.doesNotMatch(page, /subject-2b71e0/);
  }

  return {
    callback,
    assertRefused,
    async assertSignedIn(res: Response): Promise<void> {
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "/start?lang=en");
      const cookie = signedInCookie(res);
      assert.ok(cookie, "signed in");
      const page = await (
        await fetch(`${fx.server.origin}/start?lang=en`, {
          headers: { cookie: `skillpilot_signin=${cookie}` },
        })
      ).text();
      assert.match(page, /"signedInAs":"subject-2b71e0"/);
    },
    issuer: () => as.issuer,
    origin: () => fx.server.origin,
  };
}

describe("start page sign-in: the authorization response's issuer (RFC 9207; L14)", () => {
  describe("an issuer that advertises authorization_response_iss_parameter_supported", () => {
    const flow = signInAgainst(true);

    it("signs the learner in when iss is the configured issuer", async () => {
      const { res } = await flow.callback(() => {});
      await flow.assertSignedIn(res);
    });

    it("refuses a response without iss as forged, and signs nobody in", async () => {
      const { res } = await flow.callback((url) => url.searchParams.delete("iss"));
      await flow.assertRefused(res);
    });

    it("refuses a response whose iss names another issuer", async () => {
      const { res } = await flow.callback((url) => url.searchParams.set("iss", otherIssuer));
      await flow.assertRefused(res);
    });

    it("compares iss letter for letter (a trailing slash is another issuer)", async () => {
      const { res } = await flow.callback((url) =>
        url.searchParams.set("iss", `${flow.issuer()}/`),
      );
      await flow.assertRefused(res);
    });
  });

  describe("an issuer that does not advertise it", () => {
    const flow = signInAgainst(false);

    it("signs the learner in on a response without iss", async () => {
      const { res } = await flow.callback((url) => url.searchParams.delete("iss"));
      await flow.assertSignedIn(res);
    });

    it("still refuses an iss that names another issuer", async () => {
      const { res } = await flow.callback((url) => url.searchParams.set("iss", otherIssuer));
      await flow.assertRefused(res);
    });
  });
});

describe("start page sign-in behind a TLS proxy: its cookies are Secure", () => {
  let as: TestAuthorizationServer;
  let fx: RuntimeFixture;
  before(async () => {
    as = await startAuthorizationServer({
      resource: () => "https://coach.proxied.test/mcp",
      profile: desktopProfile,
      scopes: ["coach.read", "coach.write"],
      clients: [
        {
          client_id: startPageClient,
          application_type: "web",
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code"],
          response_types: ["code"],
          redirect_uris: ["https://coach.proxied.test/start/callback"],
        },
      ],
    });
    // The proxy terminates TLS and talks plain http to the server on loopback.
    fx = await startFixture({
      publicUrl: "https://coach.proxied.test",
      developmentTunnel: true,
      allowedHosts: ["coach.proxied.test"],
      auth: {
        issuer: as.issuer,
        jwksUri: as.jwksUri,
        clientProfiles: [desktopProfile],
        signIn: { clientId: startPageClient },
      },
    });
  });
  after(async () => {
    await fx?.close();
    await as?.close();
  });

  it("sets the flow cookie Secure although the proxy's hop is plain http", async () => {
    const start = await fetch(`${fx.server.origin}/start/sign-in?lang=en`, {
      redirect: "manual",
      headers: { host: "coach.proxied.test" },
    });
    assert.equal(start.status, 302);
    const flow = start.headers.getSetCookie().find((c) => c.startsWith("skillpilot_signin_flow="));
    assert.ok(flow, "the sign-in seals its flow into a cookie");
    assert.match(flow, /;\s*secure/i);
    assert.match(flow, /;\s*httponly/i);
  });
});

describe("start page sign-in: an issuer that does not answer, and a sign-out on a shared computer", () => {
  const flow = signInAgainst(true);
  let down: RuntimeFixture | undefined;
  after(() => down?.close());

  it("an unreachable issuer is its own message with a support code and a warn line in the log", async () => {
    const closed = await freePort();
    const issuer = await createTestIssuer(`http://127.0.0.1:${closed}`);
    try {
      down = await startFixture({
        auth: { ...issuer.config([desktopProfile]), signIn: { clientId: startPageClient } },
      });
      const res = await fetch(`${down.server.origin}/start/sign-in?lang=en&lane=claude`, {
        redirect: "manual",
      });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "/start?lang=en&lane=claude&signin=unreachable");
      const page = await (
        await fetch(`${down.server.origin}/start?lang=en&lane=claude&signin=unreachable`)
      ).text();
      assert.match(page, /The sign-in service did not answer/);
      assert.match(page, /Error code for support: SIGN_IN_ISSUER_UNREACHABLE/);
      assert.doesNotMatch(page, /<p>The sign-in did not complete/);
      assert.match(page, /href="\/start\/sign-in\?lang=en&#38;lane=claude"/);
      const forged = await (
        await fetch(`${down.server.origin}/start?lang=en&signin=failed`)
      ).text();
      assert.match(forged, /The sign-in did not complete/);
      assert.match(forged, /Error code for support: SIGN_IN_NOT_COMPLETED/);
      const log = await down.stopAndReadLog();
      const warned = log
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { level: number; msg: string; issuer?: string })
        .filter((l) => /could not reach the issuer/.test(l.msg));
      assert.equal(warned.length, 1);
      assert.equal(warned[0].level, 40);
      assert.equal(warned[0].issuer, issuer.issuer);
    } finally {
      await issuer.close();
    }
  });

  it("after a sign-out the next sign-in asks the issuer for a fresh login (prompt=login)", async () => {
    const before = await fetch(`${flow.origin()}/start/sign-in?lang=en`, { redirect: "manual" });
    assert.equal(new URL(before.headers.get("location") ?? "").searchParams.get("prompt"), null);
    assert.equal(
      new URL(before.headers.get("location") ?? "").searchParams.get("scope"),
      "openid profile email",
    );
    const out = await fetch(`${flow.origin()}/start/sign-out?lang=de&lane=claude`, {
      method: "POST",
    });
    assert.equal(out.status, 200);
    // The issuer offers RP-Initiated Logout: the browser goes there to end the issuer's session,
    // and comes back to the start page it signed out on.
    const next = new URL(((await out.json()) as { next: string }).next);
    assert.equal(next.pathname, "/session/end");
    assert.equal(next.searchParams.get("client_id"), startPageClient);
    assert.equal(
      next.searchParams.get("post_logout_redirect_uri"),
      `${flow.origin()}/start/signed-out`,
    );
    assert.equal(next.searchParams.get("state"), "de.claude");
    const back = await fetch(`${flow.origin()}/start/signed-out?state=de.claude`, {
      redirect: "manual",
    });
    assert.equal(back.headers.get("location"), "/start?lang=de&lane=claude");
    const forged = await fetch(`${flow.origin()}/start/signed-out?state=xx.evil`, {
      redirect: "manual",
    });
    assert.equal(forged.headers.get("location"), "/start?lang=en");
    const fresh = setCookies(out).get("skillpilot_signin_fresh");
    assert.ok(fresh, "the sign-out marks this browser");
    const after = await fetch(`${flow.origin()}/start/sign-in?lang=en`, {
      redirect: "manual",
      headers: { cookie: `skillpilot_signin_fresh=${fresh}` },
    });
    assert.equal(new URL(after.headers.get("location") ?? "").searchParams.get("prompt"), "login");
  });
});

describe("start page sign-out at an issuer without RP-Initiated Logout", () => {
  const flow = signInAgainst(true, false);

  it("goes back to the start page it signed out on, and the next sign-in asks for a fresh login", async () => {
    const out = await fetch(`${flow.origin()}/start/sign-out?lang=de&lane=claude`, {
      method: "POST",
    });
    assert.equal(out.status, 200);
    assert.deepEqual(await out.json(), { next: "/start?lang=de&lane=claude" });
    assert.ok(setCookies(out).get("skillpilot_signin_fresh"), "the sign-out marks this browser");
  });
});

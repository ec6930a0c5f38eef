import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { renderStartPage } from "../../runtime/http/start-page.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { useBrowser } from "./support/browser.js";
import net from "node:net";
import {
  nativeCimdProfile as desktopProfile,
  startAuthorizationServer,
  startPageClientMetadata,
  type TestAuthorizationServer,
} from "../runtime/support/oidc-authorization-server.js";

import { assertReadable, assertVisibleFocus } from "./support/page-checks.js";
import { browserScripts } from "./support/widget-host.js";

const successor = { contractMajor: 2, launchUrl: "https://skillpilot.com/coach/v2/start" };

describe("first-party start page /start in a real browser (issue #14; C14, L11)", () => {
  const chromium = useBrowser();
  let fx: RuntimeFixture;
  let policyDir: string;
  let lineFile: string;
  let baseLine: Record<string, unknown>;
  let context: BrowserContext | undefined;
  /** Console errors other than the failed-request lines of answers a test provokes on purpose. */
  let errors: string[] = [];

  const setLine = (patch: Record<string, unknown>) =>
    writeFile(lineFile, JSON.stringify({ ...baseLine, ...patch }));

  before(async () => {
    baseLine = JSON.parse(await readFile(path.join(repoRoot, "release/line.json"), "utf8"));
    policyDir = await mkdtemp(path.join(tmpdir(), "skillpilot-start-page-"));
    lineFile = path.join(policyDir, "line.json");
    const allowlistFile = path.join(policyDir, "allowlist.json");
    await writeFile(allowlistFile, JSON.stringify({ launchOrigins: ["https://skillpilot.com"] }));
    await setLine({});
    fx = await startFixture({ lineFile, allowlistFile });
  });
  after(async () => {
    await fx?.close();
    if (policyDir) await rm(policyDir, { recursive: true, force: true });
  });
  beforeEach(() => setLine({}));
  afterEach(async () => {
    assert.deepEqual(errors, [], "console errors on the start page");
    errors = [];
    await context?.close();
    context = undefined;
  });

  async function open(
    query = "",
    options: { colorScheme?: "light" | "dark"; locale?: string } = {},
  ): Promise<Page> {
    context = await chromium.browser.newContext({
      colorScheme: options.colorScheme ?? "light",
      locale: options.locale ?? "en-US",
      viewport: { width: 720, height: 900 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    page.on("console", (m) => {
      if (
        m.type() === "error" &&
        !/Failed to load resource: the server responded with a status of (400|401|409|410|503)/.test(
          m.text(),
        )
      )
        errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${fx.server.origin}/start${query}`);
    await page.evaluate((await browserScripts()).probe);
    return page;
  }

  const textOf = async (page: Page, selector: string) =>
    ((await page.locator(selector).textContent()) ?? "").trim();
  const panelText = (page: Page) => textOf(page, "#result");

  async function start(page: Page, learner: string): Promise<void> {
    // A result of an earlier start on the same page must not satisfy the wait below.
    await page.evaluate(() => document.querySelector("#result .panel")?.remove());
    await page.getByLabel(/Your name|Dein Name/).fill(learner);
    await page.getByRole("button", { name: /Start session|Sitzung starten/ }).click();
    await page.waitForSelector("#result .panel");
  }

  it("picks English or German from ?lang= and Accept-Language, and links the other language", async () => {
    let page = await open("", { locale: "de-DE" });
    assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
    assert.equal(await textOf(page, "h1"), "Lernsitzung starten");
    await page.getByRole("link", { name: "English" }).click();
    await page.waitForURL(/\?lang=en$/);
    assert.equal(await textOf(page, "h1"), "Start a learning session");
    await context?.close();
    page = await open("?lang=de", { locale: "en-US" });
    assert.equal(await textOf(page, "h1"), "Lernsitzung starten");
    assert.equal(await page.getByLabel("Sprache des Coachings").inputValue(), "de");
  });

  it("starts a session and shows what comes next: the message to send in the chat, copyable, never raw JSON (C14)", async () => {
    const page = await open();
    await context!.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: fx.server.origin,
    });
    await start(page, "Ann Learner");
    assert.equal(await textOf(page, "#result h2"), "Your session is ready");
    const sid = await textOf(page, "#session-id");
    assert.match(sid, /^sps_[A-Za-z0-9_-]{22,64}$/);
    const row = await fx.db("sessions").where({ session_id: sid }).first();
    assert.equal(row.locale, "en");
    const message = await textOf(page, "#chat-message");
    assert.equal(message, `Continue my SkillPilot Coach session: ${sid}`);
    assert.equal(await textOf(page, "#mcp-url"), fx.server.mcpUrl);
    const text = await panelText(page);
    assert.doesNotMatch(text, /[{}"]|learningSessionId|expiresAt/, "no JSON on the page");
    assert.ok(!text.includes("Ann Learner"), "the learner name is not echoed");
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      "result-heading",
      "focus moves to the result",
    );
    await page.getByRole("button", { name: "Copy message" }).click();
    await page.waitForSelector("#copy-status:has-text('Copied')");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), message);
  });

  it("starts the session in the coaching language chosen, and speaks German on ?lang=de (C3)", async () => {
    const page = await open("?lang=de");
    await start(page, "Bea");
    assert.equal(await textOf(page, "#result h2"), "Deine Sitzung ist bereit");
    const sid = await textOf(page, "#session-id");
    assert.equal((await fx.db("sessions").where({ session_id: sid }).first()).locale, "de");
    assert.match(
      await textOf(page, "#chat-message"),
      /^Setze meine SkillPilot-Coach-Sitzung fort: sps_/,
    );
  });

  it("shows human error messages with the stable code for support, never the API's JSON (C14, L11)", async () => {
    const page = await open();
    const cases: [() => Promise<void>, string, RegExp][] = [
      [async () => {}, "INVALID_INPUT", /Please check your name/],
      [
        () => setLine({ newSessionPolicy: "BLOCK", successor: null }),
        "TEMPORARILY_UNAVAILABLE",
        /Starting sessions is paused at the moment/,
      ],
      [
        () => setLine({ newSessionPolicy: "BLOCK", successor }),
        "MAJOR_UPGRADE_REQUIRED",
        /no longer starts sessions/,
      ],
    ];
    for (const [arrange, code, human] of cases) {
      await arrange();
      await start(page, code === "INVALID_INPUT" ? "" : "Cleo");
      assert.equal(await textOf(page, "#result h2"), "The session could not be started");
      const text = await panelText(page);
      assert.match(text, human);
      assert.equal(await textOf(page, "#error-code"), `Error code for support: ${code}`);
      assert.doesNotMatch(text, /[{}"]|recovery|Ask the learner/, `${code}: API text on the page`);
      if (code === "MAJOR_UPGRADE_REQUIRED")
        assert.equal(
          await page.getByRole("link", { name: "Open the newer version" }).getAttribute("href"),
          successor.launchUrl,
        );
    }
    await page.route("**/api/sessions", (route) => route.abort());
    await start(page, "Dan");
    errors = errors.filter((e) => !e.includes("net::ERR_FAILED")); // the aborted request
    assert.equal(await textOf(page, "#error-code"), "Error code for support: NETWORK_ERROR");
  });

  it("on a WARN line asks before starting, then starts on the learner's explicit choice (L11)", async () => {
    await setLine({ supportLifecycle: "DEPRECATED", newSessionPolicy: "WARN", successor });
    const page = await open();
    const before = Number((await fx.db("sessions").count({ n: "*" }))[0].n);
    await start(page, "Eve");
    assert.equal(await textOf(page, "#result h2"), "A newer SkillPilot Coach is available");
    assert.equal(
      Number((await fx.db("sessions").count({ n: "*" }))[0].n),
      before,
      "nothing minted yet",
    );
    await page.getByRole("button", { name: "Start here anyway" }).click();
    await page.waitForSelector("#result .panel.ok");
    assert.equal(Number((await fx.db("sessions").count({ n: "*" }))[0].n), before + 1);
  });

  it("asks for the launch key when the server is reachable beyond loopback and sends it as a bearer token", async () => {
    const launchSecret = "a-first-party-launch-secret-of-32-chars-or-more";
    const remote = await startFixture({ host: "127.0.0.2", launchSecret });
    try {
      context = await chromium.browser.newContext();
      const page = await context.newPage();
      page.on("console", (m) => {
        if (m.type() === "error" && !m.text().includes("status of 401")) errors.push(m.text());
      });
      await page.goto(`${remote.server.origin}/start`);
      await page.getByLabel("Your name").fill("Gus");
      await page.getByLabel("Launch key").fill("wrong-key");
      await page.getByRole("button", { name: "Start session" }).click();
      await page.waitForSelector("#result .panel.error");
      assert.match(await panelText(page), /The launch key is missing or wrong/);
      assert.equal(await textOf(page, "#error-code"), "Error code for support: UNAUTHORIZED");
      await page.getByLabel("Launch key").fill(launchSecret);
      await page.getByRole("button", { name: "Start session" }).click();
      await page.waitForSelector("#result .panel.ok");
      const sid = await textOf(page, "#session-id");
      assert.ok(await remote.db("sessions").where({ session_id: sid }).first());
    } finally {
      await remote.close();
    }
  });

  it("labels the typed name as a local development convenience; after a start the form is disabled, Enter starts no second session, and the session id is announced once (issue #24 item 6)", async () => {
    const page = await open();
    const label = page.locator('label[for="learner"]');
    assert.equal((await label.textContent())?.trim(), "Your name (local development)");
    assert.match(
      await textOf(page, "#learner-hint"),
      /without a sign-in service.*letter for letter/,
    );
    await start(page, "Ada Lovelace");
    const sid = await textOf(page, "#session-id");
    const count = async () => Number((await fx.db("sessions").count({ n: "*" }))[0].n);
    const before = await count();
    assert.equal(await page.locator("#learner").isDisabled(), true);
    assert.equal(await page.locator("#submit").isDisabled(), true);
    await page.locator("#learner").press("Enter");
    await page.keyboard.press("Enter");
    await page.evaluate(() =>
      (document.getElementById("launch") as HTMLFormElement).requestSubmit(),
    );
    assert.equal(await count(), before, "no second session");
    // Announced once: focus moves to the heading, described by the message with the id; no live
    // region repeats it.
    const announced = await page.evaluate((id) => {
      const focused = document.activeElement as HTMLElement;
      const described = (focused.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .map((ref) => document.getElementById(ref)?.textContent ?? "")
        .join(" ");
      const live = [
        ...document.querySelectorAll('[aria-live], [role="status"], [role="alert"], output'),
      ].filter((e) => (e.textContent ?? "").includes(id));
      return {
        focused: focused.id,
        inDescription: described.split(id).length - 1,
        liveRegions: live.length,
      };
    }, sid);
    assert.deepEqual(announced, { focused: "result-heading", inDescription: 1, liveRegions: 0 });
  });

  for (const colorScheme of ["light", "dark"] as const)
    it(`meets WCAG AA in every state and is keyboard operable with a visible focus ring, ${colorScheme} (issue #14)`, async () => {
      const page = await open("", { colorScheme });
      await assertReadable(page, `${colorScheme} form`);
      await page.keyboard.press("Tab");
      await assertVisibleFocus(page, "English");
      await page.keyboard.press("Tab");
      // The lane links (one start page per host) come before the form.
      await page.keyboard.press("Tab");
      await assertVisibleFocus(page, "In ChatGPT");
      // One link per lane the server serves, then the form.
      const lanes = await page.locator("nav.lanes a").count();
      assert.ok(lanes >= 3, `lanes linked: ${lanes}`);
      for (let i = 0; i < lanes; i++) await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "learner");
      await assertVisibleFocus(page, "");
      await page.keyboard.type("Finn");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#result .panel.ok");
      await assertReadable(page, `${colorScheme} ready`);
      // After a start the form stays disabled (a reload shows the ready session again): the
      // error state is a fresh tab's.
      await page.evaluate(() => sessionStorage.clear());
      await page.reload();
      await page.evaluate((await browserScripts()).probe);
      await page.getByRole("button", { name: "Start session" }).click();
      await page.waitForSelector("#result .panel.error");
      await assertReadable(page, `${colorScheme} error`);
    });

  it("keeps the ready session through a language switch and Back, and starts sessions for the lane of its start page", async () => {
    const page = await open("?lane=claude");
    assert.equal(
      await page.getByRole("link", { name: "In Claude" }).getAttribute("aria-current"),
      "page",
    );
    await page.getByLabel("Your name (local development)").fill("Lena");
    await page.getByRole("button", { name: "Start session" }).click();
    await page.waitForSelector("#result .panel.ok");
    const id = await page.locator("#session-id").textContent();
    // The Claude lane's own MCP URL, which alone serves this session.
    assert.match((await page.locator("#mcp-url").textContent()) ?? "", /\/claude\/mcp$/);
    await page.getByRole("link", { name: "Deutsch" }).click();
    await page.waitForSelector("#result .panel.ok");
    assert.equal(await page.locator("#session-id").textContent(), id);
    assert.match(page.url(), /lane=claude/);
    await page.goBack();
    await page.waitForSelector("#result .panel.ok");
    assert.equal(await page.locator("#session-id").textContent(), id);
    // Another lane's start page is another start: its form is open.
    await page.getByRole("link", { name: "In ChatGPT" }).click();
    await page.waitForSelector("#launch");
    assert.equal(await page.locator("#result .panel").count(), 0);
  });
});

describe("start page sign-in through the configured OAuth issuer, in a real browser (issue #24 item 6; L14)", () => {
  const chromium = useBrowser();
  let as: TestAuthorizationServer;
  let fx: RuntimeFixture;
  let context: BrowserContext | undefined;
  const startPageClient = "skillpilot-start-page";

  before(async () => {
    // The start page's redirect URI names the server's origin: pick its port first.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    let resource = "";
    as = await startAuthorizationServer({
      resource: () => resource,
      profile: desktopProfile,
      scopes: ["coach.read", "coach.write"],
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
    await context?.close();
    await fx?.close();
    await as?.close();
  });

  it("signs the learner in on the issuer's own login page (code + PKCE) and launches the session for the signed-in subject", async () => {
    context = await chromium.browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${fx.server.origin}/start`);
    assert.equal(await page.locator("#learner").count(), 0, "no typed name with an issuer");
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin === as.issuer);
    assert.equal(await page.title(), "Test issuer: sign in");
    const authorize = new URL(page.url());
    assert.equal(authorize.pathname.startsWith("/interaction/"), true);
    await page.getByLabel("Account").fill("subject-7f3a9c");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/start" && url.origin === fx.server.origin);
    assert.equal(page.url(), `${fx.server.origin}/start?lang=en`);
    assert.equal(await page.locator("#signed-in").textContent(), "Signed in as subject-7f3a9c");
    await page.getByRole("button", { name: "Start session" }).click();
    await page.waitForSelector("#result .panel.ok");
    const sid = ((await page.locator("#session-id").textContent()) ?? "").trim();
    const row = await fx.db("sessions").where({ session_id: sid }).first();
    assert.equal(row.subject, "subject-7f3a9c");
    assert.equal(row.subject_issuer, as.issuer);
    // A browser that did not sign in cannot launch for anyone without the launch API's rules,
    // and a signed-in one cannot launch for someone else.
    const foreign = await page.evaluate(async () => {
      const res = await fetch("/api/sessions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ learner: "someone-else", locale: "en" }),
      });
      return res.status;
    });
    assert.equal(foreign, 400);
    await page.getByRole("button", { name: "Sign out" }).click();
    // The issuer's logout (RP-Initiated Logout) confirms, then the start page is signed out.
    await page.waitForURL((url) => url.origin === as.issuer);
    await page.getByRole("button", { name: /yes/i }).click();
    await page.waitForSelector("#sign-in-link");
  });

  it("a callback that does not match the sign-in it started (forged state) signs nobody in", async () => {
    context = await chromium.browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${fx.server.origin}/start/callback?code=forged&state=forged`);
    await page.waitForURL(/\/start\?lang=en&signin=failed$/);
    assert.match(
      (await page.locator("#sign-in-failed").textContent()) ?? "",
      /The sign-in did not complete/,
    );
    assert.equal(await page.locator("#signed-in").count(), 0);
  });
});

describe("first-party start page /start over HTTP (issue #14; C14)", () => {
  let fx: RuntimeFixture;
  before(async () => {
    fx = await startFixture();
  });
  after(async () => fx?.close());

  it("is one self-contained page: its own CSP, no other origin, no framing", async () => {
    const res = await fetch(`${fx.server.origin}/start`, { headers: { "accept-language": "de" } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.equal(res.headers.get("content-language"), "de");
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /connect-src 'self'/);
    const html = await res.text();
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, "a reference to another origin");
    assert.doesNotMatch(html, /id="launch-key"/, "no launch key field on loopback");
  });

  it("asks for the launch key only where the launch API demands it", () => {
    assert.match(
      renderStartPage({ lang: "en", launchKeyRequired: true }),
      /id="launch-key"[^>]*type="password"/,
    );
    assert.doesNotMatch(renderStartPage({ lang: "en", launchKeyRequired: false }), /launch-key/);
  });

  it("shows the signed-in learner instead of the name field once an identity is given (escaped)", () => {
    const html = renderStartPage({ lang: "de", launchKeyRequired: false, signedInAs: "Ann <b>&" });
    assert.doesNotMatch(html, /id="learner"/);
    assert.match(html, /Angemeldet als Ann &#60;b&#62;&#38;/);
    assert.match(html, /"signedInAs":"Ann \\u003cb>&"/);
  });
});

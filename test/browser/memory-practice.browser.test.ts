import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Frame } from "playwright-core";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";
import { useBrowser } from "./support/browser.js";
import {
  assertReadable,
  assertVisibleFocus,
  eventually,
  settledSize,
} from "./support/page-checks.js";
import {
  type HostPage,
  type HostServer,
  hostContext,
  openHostPage,
  readWidget,
  startHostServer,
  type Widget,
} from "./support/widget-host.js";

const REVIEW = "review_skillpilot_memory_practice_card";

const text = (frame: Frame) => frame.$eval("#app", (el) => el.textContent ?? "");
const waitState = (frame: Frame, s: string) => frame.waitForSelector(`#app[data-state="${s}"]`);

describe("memory practice widget in a real browser: MCP Apps host (AppBridge) on chromium, real server (issue #14; L9, C14)", () => {
  const chromium = useBrowser();
  const served = useServedClient("2026-07-28 (SDK v2)", { sessionTtlSeconds: 90 * 86400 });
  let server: HostServer;
  let widget: Widget;
  let d: CoachDriver;
  let host: HostPage | undefined;
  let learners = 0;

  before(async () => {
    server = await startHostServer();
    d = new CoachDriver(served.client, served.fx);
    widget = await readWidget(served.client, "start_skillpilot_memory_practice");
  });
  after(async () => server?.close());
  afterEach(async function () {
    if (host && this.currentTest?.state === "failed") {
      const frame = host.page.frames().find((f) => f !== host?.page.mainFrame());
      const where = frame ? await text(frame).catch(() => "(unreadable)") : "(no widget frame)";
      console.error(
        `    the widget showed: ${where}\n    the server answered: ${host.answers.join(" | ")}`,
      );
    }
    if (host) assert.deepEqual(host.errors, [], "console errors in the host or the widget");
    await host?.close();
    host = undefined;
  });

  /** A fresh session with two mastered goals and its practice deck, as the server answers it. */
  async function practice(): Promise<{ sid: string; result: Out }> {
    const { sid } = await d.sessionWithMastered(`practice-${++learners}`, 2);
    const result = await d.call("start_skillpilot_memory_practice", { learningSessionId: sid });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    return { sid, result };
  }

  async function mounted(
    options: {
      colorScheme?: "light" | "dark";
      theme?: "light" | "dark";
      locale?: string;
      variables?: boolean;
      initialHeight?: number;
    } = {},
  ): Promise<{ sid: string; frame: Frame; host: HostPage }> {
    const { sid, result } = await practice();
    host = await openHostPage(chromium.browser, server, served.client, {
      colorScheme: options.colorScheme ?? "light",
    });
    const frame = await host.mount(widget, {
      hostContext: hostContext(options.theme ?? "light", options),
      toolInput: { learningSessionId: sid },
      toolResult: result,
      initialHeight: options.initialHeight,
    });
    await waitState(frame, "front");
    return { sid, frame, host };
  }

  /**
   * The learner moves on elsewhere after grading in the widget: another practice of the session
   * (opened from the chat) grades its first card, so the widget's partly graded deck is stale.
   */
  async function gradeElsewhere(sid: string): Promise<void> {
    const fresh = await d.call("start_skillpilot_memory_practice", { learningSessionId: sid });
    const deck = (fresh._meta as Out)["skillpilot/memoryPractice"] as Out;
    const graded = await d.call(REVIEW, {
      learningSessionId: sid,
      practiceCapability: deck.practiceCapability,
      clientRequestId: randomUUID(),
      grade: "good",
    });
    assert.equal(graded.isError, undefined, JSON.stringify(graded));
  }

  const reviews = async (sid: string) =>
    ((await d.rows(sid)).receipts as Out[]).filter((r) => r.operation === REVIEW).length;

  it("renders the served page, flips and grades each card through the real server to the end (L9, C4)", async () => {
    const { sid, frame, host: h } = await mounted();
    assert.match(await text(frame), /Card 1 of 2/);
    assert.doesNotMatch(await text(frame), /git init/, "the answer stays hidden until revealed");
    await frame.getByRole("button", { name: "Show answer" }).click();
    await waitState(frame, "back");
    assert.match(await text(frame), /git init/);
    await frame.getByRole("button", { name: "Good" }).click();
    await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Easy" }).click();
    await waitState(frame, "done");
    assert.match(await text(frame), /Practice complete: 2 cards reviewed\./);
    assert.deepEqual(
      h.calls.map((c) => [c.name, c.arguments.grade]),
      [
        [REVIEW, "good"],
        [REVIEW, "easy"],
      ],
    );
    assert.equal(await reviews(sid), 2, "two grades, two receipts");
  });

  for (const [os, theme, variables] of [
    ["light", "light", false],
    ["light", "dark", false],
    ["dark", "dark", false],
    ["dark", "light", false],
    ["light", "dark", true],
    ["dark", "light", true],
  ] as const)
    it(`follows the host theme ${theme} on an OS in ${os} mode${variables ? " with host style variables" : ""}: every text and control meets WCAG AA (issue #14)`, async () => {
      const { frame } = await mounted({ colorScheme: os, theme, variables });
      const scheme = await frame.evaluate(
        () => getComputedStyle(document.documentElement).colorScheme,
      );
      assert.equal(scheme, theme, "the host theme wins over the OS preference");
      await assertReadable(frame, `${theme} front`);
      await frame.getByRole("button", { name: "Show answer" }).click();
      await waitState(frame, "back");
      const findings = await assertReadable(frame, `${theme} back`);
      const buttons = findings.filter((f) => f.kind === "text" && f.what.startsWith("button"));
      assert.deepEqual(
        buttons.map((b) => /"(\w+)"/.exec(b.what)?.[1]),
        ["Again", "Hard", "Good", "Easy"],
      );
    });

  it("falls back to the OS colour scheme only when the host names no theme (issue #14)", async () => {
    const { sid, result } = await practice();
    host = await openHostPage(chromium.browser, server, served.client, { colorScheme: "dark" });
    const { theme: _none, ...noTheme } = hostContext("light");
    const frame = await host.mount(widget, {
      hostContext: noTheme,
      toolInput: { learningSessionId: sid },
      toolResult: result,
    });
    await waitState(frame, "front");
    assert.equal(
      await frame.evaluate(() => getComputedStyle(document.documentElement).colorScheme),
      "dark",
    );
    await assertReadable(frame, "OS dark, no host theme");
  });

  it("switches theme and label language live on ui/notifications/host-context-changed (issue #14)", async () => {
    const { frame, host: h } = await mounted({ theme: "light" });
    await h.page.evaluate(
      (ctx) => window.harness.setHostContext(ctx),
      hostContext("dark", { locale: "de-DE" }) as Out,
    );
    await frame.waitForFunction(
      () => document.documentElement.getAttribute("data-theme") === "dark",
    );
    await frame.waitForFunction(() => document.documentElement.lang === "de");
    assert.match(await text(frame), /Karte 1 von 2/);
    await frame.getByRole("button", { name: "Antwort zeigen" }).click();
    await waitState(frame, "back");
    for (const label of ["Nochmal", "Schwer", "Gut", "Leicht"])
      assert.equal(await frame.getByRole("button", { name: label }).count(), 1, label);
    await assertReadable(frame, "after switching to dark");
  });

  it("keeps a lost grade answer retryable: Try again repeats the same clientRequestId and the server records it once (G6, C14)", async () => {
    for (const theme of ["light", "dark"] as const) {
      const { sid, frame, host: h } = await mounted({ theme, colorScheme: theme });
      await frame.getByRole("button", { name: "Show answer" }).click();
      h.loseNextAnswer();
      await frame.getByRole("button", { name: "Hard" }).click();
      await frame.waitForSelector("[role=alert]");
      assert.match(await text(frame), /Could not reach the server to save this grade\./);
      assert.match(
        await text(frame),
        /Try again resends your grade “Hard”; it is counted only once\./,
        "the notice names the grade being retried",
      );
      await assertReadable(frame, `${theme} retry state`);
      await frame.getByRole("button", { name: "Try again" }).click();
      await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
      assert.equal(h.calls.length, 2);
      assert.deepEqual(
        h.calls[1].arguments,
        h.calls[0].arguments,
        "the retry is the identical call",
      );
      assert.equal(await reviews(sid), 1, "the grade is recorded once");
      await host?.close();
      host = undefined;
    }
  });

  it("shows a readable notice when the server refuses the grade (a stale deck), in both themes (C14)", async () => {
    for (const theme of ["light", "dark"] as const) {
      const { sid, frame } = await mounted({ theme, colorScheme: theme });
      // Any write moves the state on: the open deck's capability is stale now.
      await d.master(await d.context(sid));
      await frame.getByRole("button", { name: "Show answer" }).click();
      await frame.getByRole("button", { name: "Good" }).click();
      await waitState(frame, "error");
      assert.match(
        await text(frame),
        /Your grade “Good” was not saved: your progress changed elsewhere \(for example in the chat\) after this practice opened, so this practice is out of date\. Your earlier grades are saved\.Start a new practice/,
      );
      await assertReadable(frame, `${theme} error state`);
      await host?.close();
      host = undefined;
    }
  });

  it("sizes the frame to its content both ways: a 500 px frame shrinks to the card and again when done, a 40 px frame grows (issue #14)", async () => {
    const { frame, host: h } = await mounted({ initialHeight: 500 });
    const front = await settledSize(h, frame);
    assert.ok(front.frame < 500, `front: ${JSON.stringify(front)}`);
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Good" }).click();
    await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Hard" }).click();
    await waitState(frame, "done");
    const done = await eventually(
      () => settledSize(h, frame),
      (s) => s.frame < front.frame,
      "the frame shrinks to the done line",
    );
    assert.ok(done.frame < 100, `done: ${JSON.stringify({ front, done })}`);
    await h.close();

    const small = await mounted({ initialHeight: 40 });
    host = small.host;
    const grown = await settledSize(small.host, small.frame);
    assert.equal(grown.frame, front.frame, "a small frame grows to the same card height");
  });

  it("reports a new height when the host narrows the frame, so nothing is clipped (issue #14)", async () => {
    const { frame, host: h } = await mounted();
    await frame.getByRole("button", { name: "Show answer" }).click();
    await waitState(frame, "back");
    const wide = await settledSize(h, frame);
    await h.page.evaluate(() => window.harness.setFrameWidth(240));
    const narrow = await eventually(
      () => settledSize(h, frame),
      (s) => s.frame > wide.frame,
      "a taller frame for the re-wrapped content",
    );
    assert.equal(
      await frame.evaluate(() => window.__probe.clipped()),
      false,
      JSON.stringify(narrow),
    );
  });

  it("is keyboard operable with a visible focus ring: Tab, Enter to flip, arrow-free grading by Tab and Space (issue #14)", async () => {
    for (const theme of ["light", "dark"] as const) {
      const { sid, frame, host: h } = await mounted({ theme, colorScheme: theme });
      await h.page.keyboard.press("Tab");
      await assertVisibleFocus(frame, "Show answer");
      await h.page.keyboard.press("Enter");
      await waitState(frame, "back");
      // After a flip focus is on "Good", so Enter twice never rates the card "Again".
      await assertVisibleFocus(frame, "Good");
      await h.page.keyboard.press("Space");
      await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
      await eventually(
        () => frame.evaluate(() => window.__probe.focused()),
        (f) => f === "Show answer",
        "focus on the next card's Show answer",
      );
      assert.deepEqual(
        h.calls.map((c) => c.arguments.grade),
        ["good"],
      );
      assert.equal(await reviews(sid), 1);
      await host?.close();
      host = undefined;
    }
  });

  it("a grade the host never answers times out into a visible Try again, which records it once (issue #24 item 7; G6)", async () => {
    const { sid, frame, host: h } = await mounted();
    await h.page.clock.install();
    await frame.getByRole("button", { name: "Show answer" }).click();
    h.holdNextAnswer();
    await frame.getByRole("button", { name: "Good" }).click();
    await waitState(frame, "saving");
    await eventually(
      () => reviews(sid),
      (n) => n === 1,
      "the server applied the grade",
    );
    await h.page.clock.fastForward(20_000);
    await frame.waitForSelector("[role=alert]");
    assert.match(
      await text(frame),
      /The server has not answered yet, so this grade is not confirmed\. Try again resends your grade “Good”; it is counted only once\./,
    );
    await assertReadable(frame, "timed-out grade");
    await frame.getByRole("button", { name: "Try again" }).click();
    await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
    assert.deepEqual(h.calls[1].arguments, h.calls[0].arguments, "the retry is the identical call");
    assert.equal(await reviews(sid), 1, "the grade is recorded once");
  });

  it("a refused grade offers a next step: Start a new practice opens a fresh deck that grades (issue #24 item 7; C14)", async () => {
    const { sid, frame, host: h } = await mounted();
    await d.master(await d.context(sid));
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Good" }).click();
    await waitState(frame, "error");
    assert.match(
      await text(frame),
      /Your grade “Good” was not saved: your progress changed elsewhere .*Your earlier grades are saved\./,
    );
    await assertReadable(frame, "refused grade");
    await frame.getByRole("button", { name: "Start a new practice" }).click();
    await waitState(frame, "front");
    assert.equal(h.calls.at(-1)?.name, "start_skillpilot_memory_practice");
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Good" }).click();
    await frame.waitForFunction(() => /Card 2 of/.test(document.body.textContent ?? ""));
    assert.equal(await reviews(sid), 1, "the fresh deck's grade is recorded");
  });

  it('"Again" brings the card back once the others are done, as practice only; the end moves focus to the summary (issue #24 item 7)', async () => {
    const { sid, frame, host: h } = await mounted();
    const firstFront = await frame.$eval(".front .face-text", (e) => e.textContent);
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Again" }).click();
    await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Good" }).click();
    await waitState(frame, "repeat");
    assert.match(await text(frame), /Once more: card 1 of 2/);
    assert.equal(await frame.$eval(".front .face-text", (e) => e.textContent), firstFront);
    await frame.getByRole("button", { name: "Show answer" }).click();
    await waitState(frame, "repeat-back");
    assert.match(await text(frame), /Your grade is saved\. This repeat is practice only\./);
    await assertReadable(frame, "repeat");
    await frame.getByRole("button", { name: "Again" }).click();
    await waitState(frame, "repeat");
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.getByRole("button", { name: "Got it" }).click();
    await waitState(frame, "done");
    assert.match(await text(frame), /Practice complete: 2 cards reviewed\./);
    assert.equal(await frame.evaluate(() => document.activeElement?.id), "summary");
    assert.deepEqual(
      h.calls.map((c) => c.arguments.grade),
      ["again", "good"],
      "repeats write nothing",
    );
    assert.equal(await reviews(sid), 2);
  });

  it("labels front and back for screen readers and shows the grade question (issue #24 item 7)", async () => {
    const { frame } = await mounted();
    const front = frame.getByRole("group", { name: "Front" });
    assert.equal(await front.count(), 1);
    assert.match((await front.textContent()) ?? "", /^Front./);
    await frame.getByRole("button", { name: "Show answer" }).click();
    await waitState(frame, "back");
    assert.match(
      (await frame.getByRole("group", { name: "Back" }).textContent()) ?? "",
      /git init/,
    );
    const question = frame.getByText("How well did you remember?");
    assert.ok(await question.isVisible(), "the grade question is visible");
    const box = await question.boundingBox();
    assert.ok(box && box.height >= 12 && box.width > 50, JSON.stringify(box));
    const grades = frame.getByRole("group", { name: "How well did you remember?" });
    assert.equal(await grades.getByRole("button").count(), 4);
    await assertReadable(frame, "labelled back");
  });

  it("Enter twice after a flip grades Good, and keys 1–4 grade (1 Again, 2 Hard, 3 Good, 4 Easy; on a repeat 1 Again, 2–4 Got it)", async () => {
    const { sid, frame, host: h } = await mounted();
    await h.page.keyboard.press("Tab");
    await assertVisibleFocus(frame, "Show answer");
    await h.page.keyboard.press("3");
    assert.equal(await frame.$eval("#app", (e) => e.getAttribute("data-state")), "front");
    await h.page.keyboard.press("Enter");
    await waitState(frame, "back");
    assert.match(await text(frame), /Keys: 1 Again · 2 Hard · 3 Good · 4 Easy/);
    assert.equal(
      await frame.getByRole("button", { name: "Easy" }).getAttribute("aria-keyshortcuts"),
      "4",
    );
    await h.page.keyboard.press("1");
    await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
    await h.page.keyboard.press("Enter");
    await waitState(frame, "back");
    await h.page.keyboard.press("Enter"); // the second Enter: "Good"
    await waitState(frame, "repeat");
    await h.page.keyboard.press("Enter");
    await waitState(frame, "repeat-back");
    await assertVisibleFocus(frame, "Got it");
    assert.match(await text(frame), /Keys: 1 Again · 2–4 Got it/);
    await h.page.keyboard.press("1");
    await waitState(frame, "repeat");
    await h.page.keyboard.press("Enter");
    await waitState(frame, "repeat-back");
    await h.page.keyboard.press("4");
    await waitState(frame, "done");
    assert.deepEqual(
      h.calls.map((c) => c.arguments.grade),
      ["again", "good"],
    );
    assert.equal(await reviews(sid), 2);
    await h.close();

    const next = await mounted();
    await next.frame.getByRole("button", { name: "Show answer" }).click();
    await waitState(next.frame, "back");
    await next.host.page.keyboard.press("2");
    await next.frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
    await next.frame.getByRole("button", { name: "Show answer" }).click();
    await waitState(next.frame, "back");
    await next.host.page.keyboard.press("4");
    await waitState(next.frame, "done");
    assert.deepEqual(
      next.host.calls.map((c) => c.arguments.grade),
      ["hard", "easy"],
    );
  });

  it("after a refusal, Start a new practice moves focus to the new practice's Show answer, and the refusal says the earlier grade is saved", async () => {
    const { sid, frame, host: h } = await mounted();
    await h.page.keyboard.press("Tab");
    await assertVisibleFocus(frame, "Show answer");
    await h.page.keyboard.press("Enter");
    await waitState(frame, "back");
    await h.page.keyboard.press("Enter");
    await frame.waitForFunction(() => /Card 2 of 2/.test(document.body.textContent ?? ""));
    await gradeElsewhere(sid);
    assert.equal(await reviews(sid), 2, "the widget's first grade and the one given elsewhere");
    await assertVisibleFocus(frame, "Show answer");
    await h.page.keyboard.press("Enter");
    await waitState(frame, "back");
    await h.page.keyboard.press("4");
    await waitState(frame, "error");
    assert.match(
      await text(frame),
      /Your grade “Easy” was not saved: your progress changed elsewhere .* Your earlier grades are saved\./,
    );
    await assertVisibleFocus(frame, "Start a new practice");
    await h.page.keyboard.press("Enter");
    await waitState(frame, "front");
    await eventually(
      () => frame.evaluate(() => window.__probe.focused()),
      (f) => f === "Show answer",
      "focus on the new practice's Show answer",
    );
    await assertVisibleFocus(frame, "Show answer");
    await h.page.keyboard.press("Enter");
    await waitState(frame, "back");
    await assertVisibleFocus(frame, "Good");
    assert.equal(
      await reviews(sid),
      2,
      "the earlier grades are still saved, the refused one is not",
    );
  });

  it("in German: the keys, the grade being retried and a refusal name the grade in German", async () => {
    const { sid, frame, host: h } = await mounted({ locale: "de-DE" });
    await frame.getByRole("button", { name: "Antwort zeigen" }).click();
    await waitState(frame, "back");
    assert.match(await text(frame), /Tasten: 1 Nochmal · 2 Schwer · 3 Gut · 4 Leicht/);
    h.loseNextAnswer();
    await frame.getByRole("button", { name: "Schwer" }).click();
    await frame.waitForSelector("[role=alert]");
    assert.match(
      await text(frame),
      /Mit „Erneut versuchen“ wird deine Bewertung „Schwer“ noch einmal gesendet; sie zählt nur einmal\./,
    );
    await frame.getByRole("button", { name: "Erneut versuchen" }).click();
    await frame.waitForFunction(() => /Karte 2 von 2/.test(document.body.textContent ?? ""));
    await gradeElsewhere(sid);
    await frame.getByRole("button", { name: "Antwort zeigen" }).click();
    await frame.getByRole("button", { name: "Gut", exact: true }).click();
    await waitState(frame, "error");
    assert.match(
      await text(frame),
      /Deine Bewertung „Gut“ wurde nicht gespeichert: Dein Lernstand hat sich an anderer Stelle geändert .* Deine früheren Bewertungen sind gespeichert\.Neue Übung starten/,
    );
    await assertReadable(frame, "German refusal");
  });

  it("answers the host's ui/resource-teardown (L9)", async () => {
    const { host: h } = await mounted();
    await h.page.evaluate(() => window.harness.unmount());
    const teardown = await h.page.evaluate(() =>
      window.harness.events.find((e) => e.kind === "teardown"),
    );
    assert.deepEqual(teardown, { kind: "teardown", data: "answered" });
  });

  it("on ChatGPT (window.openai): theme and locale from window.openai, grades through callTool (issue #14)", async () => {
    const { sid, result } = await practice();
    const context = await chromium.browser.newContext({ colorScheme: "light" });
    try {
      const page = await context.newPage();
      const calls: Out[] = [];
      await page.exposeFunction("openaiCallTool", async (name: string, args: Out) => {
        calls.push({ name, args });
        return served.client.callTool(name, args);
      });
      // A script string: tsx would wrap functions defined in a callback with helpers the page lacks.
      await page.addInitScript({
        content:
          `window.openai = { theme: "dark", locale: "de-DE", toolResponseMetadata: ${JSON.stringify(result._meta)}, ` +
          "callTool: function (name, args) { return window.openaiCallTool(name, args); } };",
      });
      await page.goto(
        server.serveWidget(
          widget.html,
          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
        ),
      );
      await page.waitForSelector('#app[data-state="front"]');
      assert.equal(
        await page.evaluate(() => document.documentElement.getAttribute("data-theme")),
        "dark",
      );
      assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
      await page.getByRole("button", { name: "Antwort zeigen" }).click();
      await page.getByRole("button", { name: "Gut" }).click();
      await page.waitForFunction(() => /Karte 2 von 2/.test(document.body.textContent ?? ""));
      assert.equal(calls.length, 1);
      assert.equal(calls[0].args.grade, "good");
      assert.equal(await reviews(sid), 1);
    } finally {
      await context.close();
    }
  });
});

import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";
import { useBrowser } from "./support/browser.js";
import { assertReadable, eventually, settledSize } from "./support/page-checks.js";
import {
  type HostPage,
  type HostServer,
  hostContext,
  type MountSpec,
  openHostPage,
  readWidget,
  startHostServer,
  type Widget,
} from "./support/widget-host.js";

const RENDER = "render_skillpilot_goal_visualization";

const state = (frame: Frame) => frame.$eval("#goal", (el) => el.getAttribute("data-state"));
const waitState = (frame: Frame, s: string) => frame.waitForSelector(`#goal[data-state="${s}"]`);

describe("goal visualization widget in a real browser: MCP Apps host (AppBridge) on chromium, real server (issue #14; L9, C14)", () => {
  const chromium = useBrowser();
  const served = useServedClient("2026-07-28 (SDK v2)");
  let server: HostServer;
  let widget: Widget;
  let host: HostPage | undefined;
  /** A real render: its arguments and the server's answer. */
  let render: { args: Out; result: Out };
  /** A real refusal of the same tool (a stale expectedStateVersion). */
  let refused: { args: Out; result: Out };

  before(async () => {
    server = await startHostServer();
    widget = await readWidget(served.client, RENDER);
    const d = new CoachDriver(served.client, served.fx);
    const { sid, ctx } = await d.sessionWithMastered("goal-image", 0);
    const args = {
      learningSessionId: sid,
      goalId: ctx.currentStep.goalId,
      expectedStateVersion: ctx.stateVersion,
    };
    render = { args, result: await d.call(RENDER, args) };
    assert.equal(render.result.isError, undefined, JSON.stringify(render.result));
    const stale = { ...args, expectedStateVersion: ctx.stateVersion - 1 };
    refused = { args: stale, result: await d.call(RENDER, stale) };
    assert.equal(refused.result.isError, true);
  });
  after(async () => server?.close());
  afterEach(async () => {
    if (host) assert.deepEqual(host.errors, [], "console errors in the host or the widget");
    await host?.close();
    host = undefined;
  });

  async function mounted(
    spec: Partial<MountSpec> & { colorScheme?: "light" | "dark" } = {},
  ): Promise<Frame> {
    host = await openHostPage(chromium.browser, server, served.client, {
      colorScheme: spec.colorScheme ?? "light",
    });
    return host.mount(widget, {
      hostContext: hostContext("light"),
      toolInput: render.args,
      toolResult: render.result,
      ...spec,
    });
  }

  for (const [os, theme] of [
    ["light", "light"],
    ["light", "dark"],
    ["dark", "dark"],
    ["dark", "light"],
  ] as const)
    it(`shows the server's goal image under host theme ${theme} on an OS in ${os} mode (L9, issue #14)`, async () => {
      const frame = await mounted({ colorScheme: os, hostContext: hostContext(theme) });
      await waitState(frame, "shown");
      const title = await frame.$eval("#goal svg", (svg) => svg.getAttribute("aria-label"));
      assert.match(title ?? "", /Active goal/);
      assert.equal(
        await frame.evaluate(() => getComputedStyle(document.documentElement).colorScheme),
        theme,
      );
    });

  it("keeps the error notice readable in both themes, in English and German (C14, issue #14)", async function () {
    // Eight browser contexts in one test: more than the suite's default time on a loaded machine.
    this.timeout(90_000);
    for (const theme of ["light", "dark"] as const)
      for (const [locale, pattern] of [
        ["en-GB", /The goal image could not be shown\. Your coach continues in the chat\./],
        ["de-AT", /Das Zielbild konnte nicht angezeigt werden\. Dein Coach macht im Chat weiter\./],
      ] as const) {
        const frame = await mounted({
          colorScheme: theme === "light" ? "dark" : "light",
          hostContext: hostContext(theme, { locale }),
          toolInput: refused.args,
          toolResult: refused.result,
        });
        await waitState(frame, "error");
        assert.match(await frame.$eval("#goal", (el) => el.textContent ?? ""), pattern);
        await assertReadable(frame, `${theme} ${locale} error`);
        await host?.close();
        host = undefined;
      }
  });

  it("sizes the frame to the image both ways: a 600 px frame shrinks, a 40 px frame grows, a narrower frame re-reports (issue #14)", async () => {
    let frame = await mounted({ initialHeight: 600 });
    await waitState(frame, "shown");
    const tall = await settledSize(host!, frame);
    assert.ok(tall.frame < 600, JSON.stringify(tall));
    await host?.close();

    frame = await mounted({ initialHeight: 40 });
    await waitState(frame, "shown");
    const small = await settledSize(host!, frame);
    assert.equal(small.frame, tall.frame);

    await host!.page.evaluate(() => window.harness.setFrameWidth(280));
    const narrow = await eventually(
      () => settledSize(host!, frame),
      (s) => s.frame !== small.frame,
      "a new height for the narrow layout",
    );
    assert.equal(
      await frame.evaluate(() => window.__probe.clipped()),
      false,
      JSON.stringify(narrow),
    );
  });

  /** The smallest text of the shown image in CSS pixels, and the layout shown. */
  const smallestText = (frame: Frame) =>
    frame.$eval("#goal", (box) => {
      const svg = box.querySelector("svg")!;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const sizes = [...svg.querySelectorAll("text")].map(
        (t) => Number(t.getAttribute("font-size")) * scale,
      );
      return {
        px: Math.min(...sizes),
        layout: box.getAttribute("data-layout"),
        count: sizes.length,
      };
    });

  it("lays the image out for a narrow frame: at 320 px every text is at least 12 px, and it follows the frame's width (issue #24 item 8)", async () => {
    const frame = await mounted({ width: 320 });
    await waitState(frame, "shown");
    const narrow = await smallestText(frame);
    assert.equal(narrow.layout, "narrow");
    assert.ok(narrow.px >= 12, `smallest text ${narrow.px.toFixed(1)} px at 320 px`);
    assert.equal(await frame.evaluate(() => window.__probe.clipped()), false);
    assert.match(
      (await frame.$eval("#goal svg", (svg) => svg.getAttribute("aria-label"))) ?? "",
      /Active goal/,
    );
    await host!.page.evaluate(() => window.harness.setFrameWidth(600));
    await frame.waitForSelector('#goal[data-layout="wide"]');
    await host!.page.evaluate(() => window.harness.setFrameWidth(320));
    await frame.waitForSelector('#goal[data-layout="narrow"]');
    await settledSize(host!, frame);
  });

  it("never shows text below 12 px at any frame width from 320 px: the narrow layout whenever the wide one would shrink its text (L9)", async function () {
    this.timeout(60_000);
    const frame = await mounted({ width: 440 });
    await waitState(frame, "shown");
    const at440 = await smallestText(frame);
    assert.equal(at440.layout, "narrow", "a 440 px frame would shrink the wide picture's text");
    assert.ok(at440.px >= 12, `smallest text ${at440.px.toFixed(1)} px at 440 px`);
    const seen = new Set<string>();
    for (const width of [320, 340, 400, 480, 520, 560, 575, 576, 600, 620, 520]) {
      await host!.page.evaluate((w) => window.harness.setFrameWidth(w), width);
      // Wait for the page to settle on a layout for this width (it reacts to the resize).
      const shown = await eventually(
        async () => {
          const a = await smallestText(frame);
          await new Promise((r) => setTimeout(r, 60));
          const b = await smallestText(frame);
          return { ...b, stable: a.layout === b.layout && a.px === b.px };
        },
        (v) => v.stable && v.px >= 12,
        `text of at least 12 px in a ${width} px frame`,
      );
      seen.add(shown.layout ?? "");
    }
    assert.deepEqual([...seen].sort(), ["narrow", "wide"], "both layouts are used");
    assert.equal(await frame.evaluate(() => window.__probe.clipped()), false);
  });

  describe("CSP: a request to an origin the resource does not declare never leaves the frame (issue #14)", () => {
    async function attempt(spec: Partial<MountSpec>) {
      const before = server.probeHits();
      const frame = await mounted(spec);
      await waitState(frame, "shown");
      const outcome = await frame.evaluate((url) => window.__probe.request(url), server.probeUrl);
      return { ...outcome, hits: server.probeHits() - before };
    }

    it("blocks fetch and image requests of the page as served (its own policy and the host's from _meta.ui.csp)", async () => {
      assert.deepEqual(widget.csp, {
        connectDomains: [],
        resourceDomains: [],
        frameDomains: [],
        baseUriDomains: [],
      });
      const outcome = await attempt({});
      assert.match(outcome.fetch, /^refused/);
      assert.equal(outcome.image, "refused");
      assert.equal(outcome.hits, 0, "the probe server saw a request");
      assert.ok(
        outcome.violations.some((v) => v.startsWith("connect-src")),
        outcome.violations.join(),
      );
      // The blocked requests are logged by the browser: expected here.
      host!.errors.length = 0;
    });

    it("blocks them with the host's policy alone, as an HTTP header on a separate widget origin", async () => {
      const outcome = await attempt({ mode: "origin", stripWidgetCsp: true });
      assert.match(outcome.fetch, /^refused/);
      assert.equal(outcome.image, "refused");
      assert.equal(outcome.hits, 0, "the probe server saw a request");
      host!.errors.length = 0;
    });

    it("lets them through once the origin is declared (control: the probe is reachable)", async () => {
      const probeOrigin = new URL(server.probeUrl).origin;
      const outcome = await attempt({
        mode: "origin",
        stripWidgetCsp: true,
        csp: { ...widget.csp, connectDomains: [probeOrigin], resourceDomains: [probeOrigin] },
      });
      assert.equal(outcome.fetch, "ok 200");
      assert.equal(outcome.hits, 2, "fetch and image reached the probe");
      host!.errors.length = 0;
    });
  });

  it("answers the host's ui/resource-teardown (L9)", async () => {
    const frame = await mounted();
    await waitState(frame, "shown");
    assert.equal(await state(frame), "shown");
    await host!.page.evaluate(() => window.harness.unmount());
    const teardown = await host!.page.evaluate(() =>
      window.harness.events.find((e) => e.kind === "teardown"),
    );
    assert.deepEqual(teardown, { kind: "teardown", data: "answered" });
  });
});

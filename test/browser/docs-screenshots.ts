// `npm run docs:screenshots`: regenerates docs/screenshots/*.png — both widgets in light and dark
// inside the MCP Apps test host, and the start page with a session started — from a real server
// (in process, throwaway data directory) and Debian's chromium, the same way the browser tests
// run them.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium } from "playwright-core";
import { CoachDriver } from "../runtime/support/coach-driver.js";
import { connectClient } from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture } from "../runtime/support/runtime-fixture.js";
import { chromiumPath } from "./support/browser.js";
import { hostContext, openHostPage, readWidget, startHostServer } from "./support/widget-host.js";

const out = path.join(repoRoot, "docs", "screenshots");

const fx = await startFixture();
const client = await connectClient(fx, "2026-07-28 (SDK v2)");
const server = await startHostServer();
const browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
const written: string[] = [];
try {
  await mkdir(out, { recursive: true });
  const d = new CoachDriver(client, fx);
  const goal = await readWidget(client, "render_skillpilot_goal_visualization");
  const practice = await readWidget(client, "start_skillpilot_memory_practice");

  for (const theme of ["light", "dark"] as const) {
    // Goal visualization: the image of the goal a new learner just chose.
    const { sid, ctx } = await d.sessionWithMastered(`shots-goal-${theme}`, 0);
    const args = {
      learningSessionId: sid,
      goalId: ctx.currentStep.goalId,
      expectedStateVersion: ctx.stateVersion,
    };
    let host = await openHostPage(browser, server, client, { colorScheme: theme });
    let frame = await host.mount(goal, {
      hostContext: hostContext(theme),
      toolInput: args,
      toolResult: await d.call("render_skillpilot_goal_visualization", args),
      // Wide enough for the wide layout: its smallest text at 12 px needs 560 px of room.
      width: 600,
    });
    await frame.waitForSelector('#goal[data-layout="wide"]');
    await host.page.locator("#slot").screenshot({ path: shot(`goal-visualization-${theme}.png`) });
    // The same goal in a 320 px frame: the narrow layout.
    await host.page.evaluate(() => window.harness.setFrameWidth(320));
    await frame.waitForSelector('#goal[data-layout="narrow"]');
    await host.page.waitForFunction(
      () => window.harness.lastReportedHeight() === window.harness.frameHeight(),
    );
    await host.page
      .locator("#slot")
      .screenshot({ path: shot(`goal-visualization-narrow-${theme}.png`) });
    await host.close();

    // Memory practice: a card with its answer shown and the four grades.
    const deck = await d.sessionWithMastered(`shots-practice-${theme}`, 2);
    host = await openHostPage(browser, server, client, { colorScheme: theme });
    frame = await host.mount(practice, {
      hostContext: hostContext(theme),
      toolInput: { learningSessionId: deck.sid },
      toolResult: await d.call("start_skillpilot_memory_practice", {
        learningSessionId: deck.sid,
      }),
    });
    await frame.getByRole("button", { name: "Show answer" }).click();
    await frame.waitForSelector('#app[data-state="back"]');
    await host.page.locator("#slot").screenshot({ path: shot(`memory-practice-${theme}.png`) });
    await host.close();
  }

  // The start page after a successful start.
  const context = await browser.newContext({
    colorScheme: "light",
    locale: "en-US",
    viewport: { width: 720, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(`${fx.server.origin}/start?lang=en`);
  await page.getByLabel("Your name").fill("Ann");
  await page.getByRole("button", { name: "Start session" }).click();
  await page.waitForSelector("#result .panel.ok");
  await page.screenshot({ path: shot("start-page-en.png"), fullPage: true });
  await context.close();
} finally {
  await browser.close();
  await server.close();
  await client.close();
  await fx.close();
}
for (const file of written) process.stdout.write(`wrote ${path.relative(repoRoot, file)}\n`);

function shot(name: string): string {
  const file = path.join(out, name);
  written.push(file);
  return file;
}

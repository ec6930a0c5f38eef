import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { Frame, Page } from "playwright-core";
import type { ContrastFinding } from "./host/frame-probe.js";
import type { HostPage } from "./widget-host.js";

/**
 * Poll `read` until `done` holds for its value, and return that value. A bounded wait for an
 * asynchronous effect (a size report, a re-layout), never an assertion about time.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 200 && !done(value); attempt++) {
    await sleep(25);
    value = await read();
  }
  if (!done(value)) assert.fail(`never reached: ${what} (last: ${JSON.stringify(value)})`);
  return value;
}

/**
 * Every text and control of the page meets WCAG AA: text 4.5:1 against what is behind it, control
 * boundaries 3:1 (see frame-probe.ts). Returns the findings for further checks.
 */
export async function assertReadable(
  target: Frame | Page,
  what: string,
): Promise<ContrastFinding[]> {
  const findings = await target.evaluate(() => window.__probe.contrast());
  assert.ok(
    findings.some((f) => f.kind === "text"),
    `${what}: no text measured`,
  );
  const failing = findings.filter((f) => f.ratio < f.required);
  assert.deepEqual(
    failing.map(
      (f) => `${f.kind} ${f.what}: ${f.ratio} < ${f.required} (${f.foreground} on ${f.background})`,
    ),
    [],
    `${what}: contrast below WCAG AA`,
  );
  return findings;
}

/**
 * Wait until the widget reported its content height and the host applied it, then return the
 * three numbers (reported, frame, content).
 */
export async function settledSize(
  host: HostPage,
  frame: Frame,
): Promise<{ reported: number | undefined; frame: number; content: number }> {
  return eventually(
    async () => ({
      ...(await host.sizes()),
      content: await frame.evaluate(() => window.__probe.contentHeight()),
    }),
    (s) => s.reported === s.content && s.frame === s.content,
    "the frame follows the reported content height",
  );
}

/** The focused element's outline is drawn and stands out (3:1) from what is around it. */
export async function assertVisibleFocus(frame: Frame | Page, expectedText: string): Promise<void> {
  const ring = await frame.evaluate(() => window.__probe.focusRing());
  assert.ok(ring, `nothing focused (expected ${expectedText})`);
  assert.match(ring.what, new RegExp(expectedText));
  assert.notEqual(ring.style, "none", `${ring.what}: no focus outline`);
  assert.ok(ring.width >= 2, `${ring.what}: focus outline ${ring.width}px`);
  assert.ok(ring.ratio >= ring.required, `${ring.what}: focus ring contrast ${ring.ratio}`);
}

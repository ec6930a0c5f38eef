import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's chromium (`apt-get install chromium`); `SKILLPILOT_CHROMIUM` names another binary. */
export const chromiumPath = process.env.SKILLPILOT_CHROMIUM || "/usr/bin/chromium";

/** CI (and anyone who sets SKILLPILOT_REQUIRE_BROWSER=1) must run the browser tests, never skip. */
function browserRequired(): boolean {
  return Boolean(process.env.CI) || process.env.SKILLPILOT_REQUIRE_BROWSER === "1";
}

let noticeShown = false;

/** A suite's browser, readable once the suite's `before` hook launched it. */
export interface SuiteBrowser {
  readonly browser: Browser;
}

/**
 * Registers, in the calling `describe`, a `before` hook that launches headless chromium for the
 * suite and an `after` hook that closes it. Without chromium the suite is skipped with a notice,
 * unless the run requires the browser (CI, SKILLPILOT_REQUIRE_BROWSER=1): then the hook fails and
 * says how to install it.
 */
export function useBrowser(): SuiteBrowser {
  let browser: Browser | undefined;
  before(async function () {
    if (!existsSync(chromiumPath)) {
      const how =
        `no chromium at ${chromiumPath}: install the Debian package (apt-get install chromium) ` +
        "or set SKILLPILOT_CHROMIUM to a Chromium binary";
      if (browserRequired())
        throw new Error(
          `browser tests are required here (CI / SKILLPILOT_REQUIRE_BROWSER) but ${how}`,
        );
      if (!noticeShown) {
        noticeShown = true;
        process.stdout.write(`\n  NOTICE: real-browser tests skipped — ${how}.\n\n`);
      }
      this.skip();
    }
    // Playwright already passes --no-sandbox (needed as root), --headless and a fresh profile.
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
  });
  after(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      if (!browser)
        throw new Error("useBrowser: the browser is read before the suite's before hook");
      return browser;
    },
  };
}

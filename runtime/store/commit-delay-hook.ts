/**
 * Test-only crash hook (the crash harness, test/reliability/crash.ts): hold every group commit for
 * `delayMs` just before its COMMIT and again once it is committed and synced, before any caller
 * hears back, and mark
 * each window on stderr, so a SIGKILL can be aimed at an uncommitted transaction and at a committed
 * write whose answer is not out yet. Only `SKILLPILOT_TEST_COMMIT_DELAY_MS` turns it on (see
 * runtime/config/config.ts); never in production.
 */
export interface CommitDelayHook {
  delayMs: number;
}

/** The markers the crash harness waits for (one line each on stderr). */
export const commitWindowMarkers = {
  before: "skillpilot-test-hook: before-commit",
  after: "skillpilot-test-hook: after-commit",
} as const;

/** Mark a window on stderr and hold the commit there. */
export async function commitWindow(
  hook: CommitDelayHook,
  which: "before" | "after",
): Promise<void> {
  process.stderr.write(`${commitWindowMarkers[which]}\n`);
  await new Promise((resolve) => setTimeout(resolve, hook.delayMs));
}

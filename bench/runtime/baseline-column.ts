import { existsSync } from "node:fs";
import path from "node:path";
import { benchTokens } from "./bench-tokens.js";
import { activeLearners, completeCalls, contextCalls } from "./coach-learners.js";
import type { Scenario } from "./interleave.js";
import type { Result } from "./load-driver.js";
import type { Ratio } from "./ratio-summary.js";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { BENCH_MCP_URL, BENCH_PUBLIC_ENV } from "./recall-round.js";
import { startProcess, stopProcess } from "./server-process.js";

/** A restructuring may cost at most this much more server CPU per call than the code before it. */
export const BASELINE_TOLERANCE = 1.05;

/**
 * The same-run baseline of `bench:runtime`: when BENCH_BASELINE_ROOT names a built checkout of the
 * code before a change (e.g. `git worktree add ../base main && cd ../base && npm run build`, with
 * its own or a linked node_modules), its compiled server runs beside today's, on its own data
 * directory, and its context read and goal completion interleave with today's. The ratios compare
 * server CPU per call of today's code with the base's, so a refactoring shows whether it costs
 * anything, measured side by side rather than against a figure from another day.
 */
export async function baselineColumn(today: string, dir: string, clients: number) {
  const base = process.env.BENCH_BASELINE_ROOT;
  if (!base) return undefined;
  if (!existsSync(path.join(base, "build")))
    throw new Error(`BENCH_BASELINE_ROOT ${base} has no build/: run npm run build there first`);
  // Two servers started alike, each on a fresh data directory, serving only these two calls: the
  // main coach server also serves the lanes and recall rounds, which would make it a different
  // process to compare.
  const sides = await Promise.all(
    [
      { tag: "today", root: today },
      { tag: "base", root: base },
    ].map(async ({ tag, root }) => {
      const data = path.join(dir, `baseline-${tag}`);
      const server = await startProcess(
        root,
        [path.join(root, "bin/skillpilot.js"), "start", "--port", "0", "--data-dir", data],
        { SKILLPILOT_LOG: path.join(data, "calls.log"), ...BENCH_PUBLIC_ENV },
      );
      const tokens = await benchTokens(data, BENCH_MCP_URL);
      const caller = new RawMcpCaller(server.url, clients, tokens.tokenFor);
      const learners = await activeLearners(
        new URL(server.url).origin,
        caller,
        Array.from({ length: clients }, (_, n) => `${tag}-bench-${n}`),
        tokens.bind,
      );
      const pids = [server.child.pid];
      const scenarios: Scenario[] = [
        {
          name: `context@${tag}`,
          calls: contextCalls([caller], learners),
          pids,
          group: "baseline context",
        },
        {
          name: `complete@${tag}`,
          calls: completeCalls([caller], learners),
          pids,
          group: "baseline complete",
        },
      ];
      return { server, caller, scenarios };
    }),
  );
  return {
    root: base,
    scenarios: sides.flatMap((s) => s.scenarios),
    /** Today's server CPU per call over the base's, for the context read and the completion. */
    ratios(results: Map<string, Result>): Ratio[] {
      const cpu = (name: string) => results.get(name)?.serverCpuMs ?? Number.NaN;
      return ["context", "complete"].map((name) => ({
        label: `${name}: server CPU today / the base's`,
        value: cpu(`${name}@today`) / cpu(`${name}@base`),
        target: BASELINE_TOLERANCE,
      }));
    },
    async close() {
      for (const s of sides) s.caller.close();
      await Promise.all(sides.map((s) => stopProcess(s.server.child)));
    },
  };
}

/** The column's type, for the bench's bookkeeping. */
export type BaselineColumn = NonNullable<Awaited<ReturnType<typeof baselineColumn>>>;

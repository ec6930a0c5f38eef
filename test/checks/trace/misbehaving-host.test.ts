import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkTrace, contractFacts } from "../../../checks/trace/check-trace.js";
import type { TurnFacts } from "../../../contract-model/trace/turn-facts.js";
import { coachHandlers } from "../../../runtime/domain/handlers/index.js";
import { repoRoot, startFixture } from "../../runtime/support/runtime-fixture.js";
import { recordFixture, sdkHost } from "./support/recorded-host.js";
import { type Hold, misbehavingConversation } from "./support/misbehaving-host.js";

describe("trace check: a scripted misbehaving host (G10, C2, C10, C11, C16, G6)", () => {
  it("finds each violation of the turn contract once, in its turn, and nothing else", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-misbehaving-"));
    // The next complete_skillpilot_goal call waits, before the write pipeline, when armed.
    let gate: Promise<void> | undefined;
    let open: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const hold: Hold = {
      arm: () =>
        new Promise<void>((resolve) => {
          reached = resolve;
          gate = new Promise<void>((r) => (open = r));
        }),
      release: () => open(),
    };
    const complete = coachHandlers.complete_skillpilot_goal;
    const handlers = {
      ...coachHandlers,
      complete_skillpilot_goal: async (...call: Parameters<typeof complete>) => {
        const wait = gate;
        gate = undefined;
        if (wait !== undefined) {
          reached();
          await wait;
        }
        return complete(...call);
      },
    };
    const fx = await startFixture({ sessionTtlSeconds: 365 * 86400 }, handlers);
    const out = path.join(dir, "misbehaving.jsonl");
    const recording = await recordFixture(fx, out, "misbehaving-host");
    try {
      const host = await sdkHost(fx, recording, "2026-07-28 (SDK v2)");
      const expected = await misbehavingConversation(host, recording.env, hold);
      await host.close();
      await recording.close();
      const snapshot = path.join(repoRoot, "generated/contract.snapshot.json");
      const facts = contractFacts(JSON.parse(await readFile(snapshot, "utf8"))) as TurnFacts;
      const result = checkTrace(
        await readFile(out, "utf8"),
        "misbehaving.jsonl",
        facts,
        "contract",
        {
          turnGapSeconds: 30,
        },
      );
      const found = result.diagnostics.map((d) => [(d.data as { turn: number }).turn, d.ruleId]);
      assert.deepEqual(
        found.sort(
          (x, y) => Number(x[0]) - Number(y[0]) || String(x[1]).localeCompare(String(y[1])),
        ),
        expected.sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1])),
        result.diagnostics.map((d) => d.message).join("\n"),
      );
      // Every rule of the turn contract is among them.
      const { traceRules } = await import("../../../checks/trace/rules/index.js");
      assert.deepEqual(
        [...new Set(expected.map(([, rule]) => rule))].sort(),
        traceRules.map((r) => r.rule.id).sort(),
      );
    } finally {
      await recording.close().catch(() => undefined);
      await fx.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

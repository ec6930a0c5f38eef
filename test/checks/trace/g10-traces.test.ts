import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { checkTrace, contractFacts } from "../../../checks/trace/check-trace.js";
import type { TurnFacts } from "../../../contract-model/trace/turn-facts.js";
import { repoRoot } from "../../support/temp-project.js";

const dir = path.join(repoRoot, "test/fixtures/traces");
const facts = contractFacts(
  JSON.parse(await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8")),
) as TurnFacts;

/** Re-record with `npm run traces:g10` (the Inspector needs `npm run conformance` once). */
describe("G10 evidence: recorded traces of real hosts keep the turn contract (G10, C2, C13)", () => {
  it("has a trace of each official SDK client (both eras) and of the Inspector CLI (both eras)", async () => {
    assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith("g10-")).sort(), [
      "g10-inspector-legacy.jsonl",
      "g10-inspector-modern.jsonl",
      "g10-sdk-v1-2025.jsonl",
      "g10-sdk-v2-2026-07-28.jsonl",
    ]);
  });
  for (const file of [
    "g10-sdk-v2-2026-07-28.jsonl",
    "g10-sdk-v1-2025.jsonl",
    "g10-inspector-modern.jsonl",
    "g10-inspector-legacy.jsonl",
  ])
    it(`${file}: a full coach turn, a Verified Recall round with its continuation and a conflict, with zero extra polls`, async () => {
      const text = await readFile(path.join(dir, file), "utf8");
      const result = checkTrace(text, file, facts, "contract", { turnGapSeconds: 30 });
      assert.deepEqual(result.diagnostics, []);
      assert.equal(result.turns, 7);
      const events = text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { message?: Record<string, never> });
      const calls = events.flatMap((e) =>
        e.message?.method === "tools/call" ? [(e.message.params as { name: string }).name] : [],
      );
      for (const tool of [
        "choose_skillpilot_option",
        "complete_skillpilot_goal",
        "start_skillpilot_verified_recall",
        "get_skillpilot_verified_recall_answers",
        "record_skillpilot_verified_recall_results",
        "render_skillpilot_goal_visualization",
      ])
        assert.ok(calls.includes(tool), `${file} calls ${tool}`);
      // One context read per turn, plus the one reload after the conflict.
      assert.equal(calls.filter((c) => c === "get_skillpilot_learning_context").length, 8);
      assert.match(text, /"text":"STATE_CONFLICT: redacted:prose:/);
      const era = file.includes("2025") || file.includes("legacy") ? "2025-11-25" : "2026-07-28";
      assert.ok(text.includes(`"${era}"`), `${file} speaks ${era}`);
    });
});

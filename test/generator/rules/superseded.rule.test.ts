import assert from "node:assert/strict";
import { repoRoot } from "../../support/temp-project.js";
import { generateEdited, generatorFindings } from "./support/edited-contract.js";

// The project's own contract: its tool definitions may name a replacement (supersededBy).
const GOAL = "schemas/tools/complete_skillpilot_goal.json";
const supersededBy = (replacement: string) => [
  { file: GOAL, pointer: "/supersededBy", value: replacement },
];

describe("SUPERSEDED_TOOL_INVALID (generator/rules/superseded.rule.ts)", function () {
  this.timeout(60_000);

  it("fires on a tool superseded by a tool the contract does not define", async () => {
    assert.deepEqual(
      await generatorFindings(
        "SUPERSEDED_TOOL_INVALID",
        supersededBy("complete_skillpilot_active_goal"),
        repoRoot,
      ),
      [
        [
          "error",
          GOAL,
          "/supersededBy",
          "complete_skillpilot_goal is superseded by complete_skillpilot_active_goal, which this contract does not define: add schemas/tools/complete_skillpilot_active_goal.json or name an existing tool",
        ],
      ],
    );
  });

  it("fires on a tool that names itself", async () => {
    assert.deepEqual(
      await generatorFindings(
        "SUPERSEDED_TOOL_INVALID",
        supersededBy("complete_skillpilot_goal"),
        repoRoot,
      ),
      [
        [
          "error",
          GOAL,
          "/supersededBy",
          "complete_skillpilot_goal names itself as its replacement",
        ],
      ],
    );
  });

  it("stays quiet on a replacement the contract defines and serves", async () => {
    assert.deepEqual(
      await generateEdited(supersededBy("record_skillpilot_assessment_score"), repoRoot),
      [],
    );
  });
});

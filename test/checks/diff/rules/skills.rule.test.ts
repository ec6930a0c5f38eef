import { skillChanges } from "../../../../checks/diff/rules/skills.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/skills.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, the skills tree: SKILL_ADDED, SKILL_CHANGED, SKILL_REMOVED", () => {
  proveByCorpus(skillChanges, [
    {
      rule: "SKILL_ADDED",
      severity: "note",
      fires: "skill-added",
      pointer: "/skills/practice",
      message: /new skill practice/,
      quiet: "skill-removed",
    },
    {
      rule: "SKILL_CHANGED",
      severity: "note",
      fires: "skill-changed",
      pointer: "/skills/coach",
      message: /skill coach changed: SKILL\.md edited/,
      quiet: "guard-skills-listing-absent-before",
    },
    {
      rule: "SKILL_REMOVED",
      severity: "error",
      fires: "skill-removed",
      pointer: "/skills/practice",
      message: /skill practice was removed; whoever invokes it by name no longer finds it/,
      quiet: "skill-added",
    },
  ]);
});

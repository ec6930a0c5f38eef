import { annotationFlips } from "../../../../checks/diff/rules/annotations.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/annotations.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, annotation hints: ANNOTATION_READ_ONLY_REMOVED, ANNOTATION_DESTRUCTIVE_ADDED, ANNOTATION_IDEMPOTENT_REMOVED, ANNOTATION_OPEN_WORLD_CHANGED, ANNOTATION_RELAXED", () => {
  proveByCorpus(annotationFlips, [
    {
      rule: "ANNOTATION_READ_ONLY_REMOVED",
      severity: "error",
      fires: "annotation-read-only-flipped",
      pointer: "/tools/get_context/annotations/readOnlyHint",
      message: /get_context: readOnlyHint changed true → false/,
      quiet: { reversed: "annotation-read-only-flipped" },
    },
    {
      rule: "ANNOTATION_DESTRUCTIVE_ADDED",
      severity: "error",
      fires: "annotation-destructive-flipped",
      pointer: "/tools/complete_goal/annotations/destructiveHint",
      message: /complete_goal: destructiveHint changed false → true/,
      quiet: { reversed: "annotation-destructive-flipped" },
    },
    {
      rule: "ANNOTATION_IDEMPOTENT_REMOVED",
      severity: "error",
      fires: "annotation-idempotent-flipped",
      pointer: "/tools/complete_goal/annotations/idempotentHint",
      message: /complete_goal: idempotentHint changed true → false/,
      quiet: "guard-annotation-relaxed",
    },
    {
      rule: "ANNOTATION_OPEN_WORLD_CHANGED",
      severity: "error",
      fires: "annotation-open-world-changed",
      pointer: "/tools/get_context/annotations/openWorldHint",
      message: /get_context: openWorldHint changed false → true/,
      quiet: "guard-annotation-hint-removed-same-default",
    },
    {
      rule: "ANNOTATION_RELAXED",
      severity: "note",
      fires: "guard-annotation-relaxed",
      pointer: "/tools/complete_goal/annotations/idempotentHint",
      message: /complete_goal: idempotentHint changed false → true/,
      quiet: "annotation-idempotent-flipped",
    },
  ]);
});

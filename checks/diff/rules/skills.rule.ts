import { escapePointerSegment } from "../../../diagnostics/diagnostic.js";
import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";

const added = defineRule({
  id: "SKILL_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A new skill ships in the package's skills tree (L6: MINOR, like a new tool).",
  message: "new skill {skill}",
});
const changed = defineRule({
  id: "SKILL_CHANGED",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary:
    "A skill's files changed (its SKILL.md or a file beside it, by content hash): guidance text, PATCH.",
  message: "skill {skill} changed: {files}",
});
const removed = defineRule({
  id: "SKILL_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary:
    "A skill no longer ships: hosts and users that invoke it by name lose it (L6: incompatible).",
  message: "skill {skill} was removed; whoever invokes it by name no longer finds it",
});

const at = (name: string) => `/skills/${escapePointerSegment(name)}`;

/**
 * The skills tree (names and content hashes), judged only where both sides carry it: a snapshot
 * written before the tree was recorded, or a tools/list result, has nothing to compare.
 */
export const skillChanges: DiffCheck = {
  rules: [added, changed, removed],
  check(ctx, report) {
    const before = ctx.old.skills;
    const after = ctx.new.skills;
    if (!before || !after) return;
    for (const [name, files] of before) {
      const now = after.get(name);
      if (!now) {
        report(
          removed,
          { skill: name },
          {
            pointer: at(name),
            at: { side: "old", pointer: at(name) },
            witness: {
              kind: "fact",
              acceptedBy: "old",
              rejectedBy: "new",
              value: { skill: name, shipped: false },
              verified: true,
            },
            before: files,
            after: null,
          },
        );
        continue;
      }
      const edited = [...new Set([...Object.keys(files), ...Object.keys(now)])]
        .filter((f) => files[f] !== now[f])
        .sort();
      if (edited.length > 0)
        report(
          changed,
          {
            skill: name,
            files: edited
              .map((f) => `${f} ${!(f in files) ? "added" : !(f in now) ? "removed" : "edited"}`)
              .join(", "),
          },
          { pointer: at(name), at: { side: "new", pointer: at(name) }, before: files, after: now },
        );
    }
    for (const [name, files] of after)
      if (!before.has(name))
        report(
          added,
          { skill: name },
          { pointer: at(name), at: { side: "new", pointer: at(name) }, before: null, after: files },
        );
  },
};

import { defineRule, type DiffRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import { sampleValue } from "../sample.js";

// MCP defaults when a hint is absent: pessimistic (a tool may write, destroy, not be idempotent,
// reach the open world).
const defaults = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;
type Hint = keyof typeof defaults;

// Every annotation rule words its finding the same way; the rule id says which way it went.
const hintMessage = {
  removed: "{tool}: {hint} was removed, so the default {value} applies",
  changed: "{tool}: {hint} changed {before} → {after}",
} as const;

const readOnly = defineRule({
  id: "ANNOTATION_READ_ONLY_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "readOnlyHint went true→false (or was removed): a read-only tool turned mutating.",
  message: hintMessage,
});
const destructive = defineRule({
  id: "ANNOTATION_DESTRUCTIVE_ADDED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "destructiveHint went false→true (or was removed so the default true applies).",
  message: hintMessage,
});
const idempotent = defineRule({
  id: "ANNOTATION_IDEMPOTENT_REMOVED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "idempotentHint went true→false (or was removed): retries are no longer safe.",
  message: hintMessage,
});
const openWorld = defineRule({
  id: "ANNOTATION_OPEN_WORLD_CHANGED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "openWorldHint changed (explicitly or through its default).",
  message: hintMessage,
});
const relaxed = defineRule({
  id: "ANNOTATION_RELAXED",
  family: "diff",
  pinning: "descriptive",
  bump: "patch",
  severity: "note",
  summary: "An annotation changed in the safe direction (matching existing behaviour).",
  message: hintMessage,
});

// Which direction of each hint is the unsafe one for old clients and hosts.
const unsafe: Record<
  Hint,
  { rule: DiffRule<typeof hintMessage>; breaks: (before: boolean, after: boolean) => boolean }
> = {
  readOnlyHint: { rule: readOnly, breaks: (b, a) => b && !a },
  destructiveHint: { rule: destructive, breaks: (b, a) => !b && a },
  idempotentHint: { rule: idempotent, breaks: (b, a) => b && !a },
  openWorldHint: { rule: openWorld, breaks: (b, a) => b !== a },
};

/** Annotation flips, judged on the effective value (explicit hint or the MCP default). */
export const annotationFlips: DiffCheck = {
  rules: [readOnly, destructive, idempotent, openWorld, relaxed],
  check(ctx, report) {
    for (const [name, before] of ctx.old.tools) {
      const after = ctx.new.tools.get(name);
      if (!after) continue;
      for (const hint of Object.keys(defaults) as Hint[]) {
        const rawBefore = before.annotations?.[hint];
        const rawAfter = after.annotations?.[hint];
        if (rawBefore === rawAfter) continue;
        const b = typeof rawBefore === "boolean" ? rawBefore : defaults[hint];
        const a = typeof rawAfter === "boolean" ? rawAfter : defaults[hint];
        // A hint written out at its MCP default is the same annotation as one left out.
        if (a === b) continue;
        const params =
          rawAfter === undefined
            ? { variant: "removed" as const, tool: name, hint, value: a }
            : { variant: "changed" as const, tool: name, hint, before: b, after: a };
        const finding = {
          tool: name,
          pointer: `/tools/${name}/annotations/${hint}`,
          at: { side: "new" as const, pointer: `${after.pointer}/annotations/${hint}` },
          before: rawBefore ?? null,
          after: rawAfter ?? null,
        };
        if (unsafe[hint].breaks(b, a)) {
          const call = { name, arguments: sampleValue(before.input) };
          report(unsafe[hint].rule, params, {
            ...finding,
            witness: {
              kind: "call",
              acceptedBy: "old",
              rejectedBy: "new",
              value: { ...call, hostTreatedAs: { [hint]: b }, nowDeclared: { [hint]: a } },
              verified: true,
            },
          });
        } else report(relaxed, params, finding);
      }
    }
  },
};

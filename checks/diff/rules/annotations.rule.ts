import { defineDiffRule, type DiffCheck, type DiffRuleMeta } from "../diff-rule.js";
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

const readOnly = defineDiffRule(
  "ANNOTATION_READ_ONLY_REMOVED",
  "major",
  "readOnlyHint went true→false (or was removed): a read-only tool turned mutating.",
);
const destructive = defineDiffRule(
  "ANNOTATION_DESTRUCTIVE_ADDED",
  "major",
  "destructiveHint went false→true (or was removed so the default true applies).",
);
const idempotent = defineDiffRule(
  "ANNOTATION_IDEMPOTENT_REMOVED",
  "major",
  "idempotentHint went true→false (or was removed): retries are no longer safe.",
);
const openWorld = defineDiffRule(
  "ANNOTATION_OPEN_WORLD_CHANGED",
  "major",
  "openWorldHint changed (explicitly or through its default).",
);
const relaxed = defineDiffRule(
  "ANNOTATION_RELAXED",
  "patch",
  "An annotation changed in the safe direction (matching existing behaviour).",
);
const removedSame = defineDiffRule(
  "ANNOTATION_HINT_REMOVED",
  "patch",
  "A hint was removed but its default equals the old value.",
);

// Which direction of each hint is the unsafe one for old clients and hosts.
const unsafe: Record<
  Hint,
  { rule: DiffRuleMeta; breaks: (before: boolean, after: boolean) => boolean }
> = {
  readOnlyHint: { rule: readOnly, breaks: (b, a) => b && !a },
  destructiveHint: { rule: destructive, breaks: (b, a) => !b && a },
  idempotentHint: { rule: idempotent, breaks: (b, a) => b && !a },
  openWorldHint: { rule: openWorld, breaks: (b, a) => b !== a },
};

/** Annotation flips, judged on the effective value (explicit hint or the MCP default). */
export const annotationFlips: DiffCheck = {
  rules: [readOnly, destructive, idempotent, openWorld, relaxed, removedSame],
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
        const how =
          rawAfter === undefined
            ? `was removed, so the default ${a} applies`
            : `changed ${b} → ${a}`;
        const finding = {
          tool: name,
          pointer: `/tools/${name}/annotations/${hint}`,
          at: { side: "new" as const, pointer: `${after.pointer}/annotations/${hint}` },
          message: `${name}: ${hint} ${how}`,
          before: rawBefore ?? null,
          after: rawAfter ?? null,
        };
        if (unsafe[hint].breaks(b, a)) {
          const call = { name, arguments: sampleValue(before.input) };
          report(unsafe[hint].rule, {
            ...finding,
            witness: {
              kind: "call",
              acceptedBy: "old",
              rejectedBy: "new",
              value: { ...call, hostTreatedAs: { [hint]: b }, nowDeclared: { [hint]: a } },
              verified: true,
            },
          });
        } else report(b === a ? removedSame : relaxed, finding);
      }
    }
  },
};

import type { ApprovedDefinitions, DefinitionHolder } from "../approved-definitions.js";
import { holderLabel } from "../approved-summary.js";
import { definitionTag } from "./definition-tag.js";
import { toolDigest } from "./tool-digest.js";

/** The definition set one live holder approved, with its tag on each lane. */
export interface HolderDefinitionSet {
  holder: DefinitionHolder;
  /** Tool name → digest (`toolDigest`), sorted by name. */
  digests: Record<string, string>;
  /** Lane id → the set's tag on that lane, in the order the lanes were given. */
  tags: Record<string, string>;
}

/** A definition set that is not a holder's: the one a server lists now. */
export interface ServedDefinitionSet {
  digests: Record<string, string>;
  tags: Record<string, string>;
}

/**
 * Every live approved definition set with its tags: one per live holder (each published release
 * not retired, oldest first, then the draft under review freeze), on every lane given. Pure over
 * the approved-definitions model, so the server can compute exactly what the statement records.
 */
export function liveDefinitionSets(
  defs: ApprovedDefinitions,
  lanes: readonly string[],
): HolderDefinitionSet[] {
  return defs.holders.map((holder) => {
    const digests: Record<string, string> = {};
    for (const [name, list] of defs.tools)
      for (const def of list)
        if (def.holders.some((h) => h.kind === holder.kind && h.version === holder.version))
          digests[name] = toolDigest(def.descriptor);
    return { holder, digests, tags: laneTags(digests, lanes) };
  });
}

/** The tagged set of a listing (the current contract's listed tools) on every lane given. */
export function servedDefinitionSet(
  tools: readonly Record<string, unknown>[],
  lanes: readonly string[],
): ServedDefinitionSet {
  const pairs = tools.map((t) => [String(t.name), toolDigest(t)] as const);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const digests = Object.fromEntries(pairs);
  return { digests, tags: laneTags(digests, lanes) };
}

function laneTags(
  digests: Record<string, string>,
  lanes: readonly string[],
): Record<string, string> {
  return Object.fromEntries(
    lanes.map((lane) => [lane, definitionTag(lane, Object.values(digests))]),
  );
}

/**
 * The text section `contract show` appends: the current listing's tag and each live approved
 * set's tag, per lane (first 12 hex digits; `--json` has them whole).
 */
export function definitionTagsSummary(
  served: ServedDefinitionSet,
  sets: readonly HolderDefinitionSet[],
): string {
  const short = (tag: string) => `${tag.slice(0, "sha256:".length + 12)}…`;
  const laneList = (tags: Record<string, string>) =>
    Object.entries(tags)
      .map(([lane, tag]) => `${lane} ${short(tag)}`)
      .join("  ");
  const rows: [string, string][] = [
    ["current", laneList(served.tags)],
    ...sets.map((s): [string, string] => [holderLabel(s.holder), laneList(s.tags)]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [
    "",
    "Definition tags (tools/list, per lane; experimental):",
    ...rows.map(([label, tags]) => `  ${label.padEnd(width)}  ${tags}`),
  ];
  const current = Object.values(served.tags);
  for (const s of sets)
    if (Object.values(s.tags).some((t, i) => t === current[i]))
      lines.push(`  ${holderLabel(s.holder)} lists the current definitions`);
  return `${lines.join("\n")}\n`;
}

/** The tags as `contract show --json` adds them. */
export function definitionTagsJson(
  served: ServedDefinitionSet,
  sets: readonly HolderDefinitionSet[],
): Record<string, unknown> {
  return {
    current: served,
    live: sets.map((s) => {
      const { snapshotFile: _file, ...holder } = s.holder;
      return { holder, digests: s.digests, tags: s.tags };
    }),
  };
}

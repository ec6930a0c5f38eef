import type { JsonObject } from "../../../json-schema/schema-facts.js";
import { type DescriptorEdit, descriptorEdits, type Listing } from "./descriptor-edits.js";
import type { Judgement } from "./judgement.js";
import { type Fragment, keywordEdits } from "./schema-edits.js";
import {
  editSpace,
  type SchemaDepth,
  type ToolEdit,
  type ToolLocation,
  toolModel,
} from "./tool-model.js";

/** The tool every generated case edits. */
export const editedTool = "t";

/** Writes one side of a mapped edit into a listing, at a slot name of its own. */
export type SidePatch = (listing: Listing, slot: string) => void;

/** One edit of the model with its judgement and the patches that build its case. */
export interface MapEntry {
  edit: ToolEdit;
  judge: Judgement;
  before: SidePatch;
  after: SidePatch;
  /** Edits that write the same fact; a composition takes at most one per group. */
  group?: string;
}

/** A fresh listing holding the edited tool with an empty open input object. */
export function baseListing(): Listing {
  return {
    tools: [{ name: editedTool, inputSchema: { type: "object", properties: {} } }],
  };
}

const toolOf = (l: Listing) => l.tools.find((t) => t.name === editedTool) as JsonObject;

/** Put a keyword fragment at its depth under `properties[slot]` of one schema of the tool. */
function placeFragment(
  listing: Listing,
  side: "inputSchema" | "outputSchema",
  depth: SchemaDepth,
  slot: string,
  frag: Fragment,
): void {
  const tool = toolOf(listing);
  tool[side] ??= { type: "object", properties: {} };
  const schema = tool[side] as JsonObject;
  const props = schema.properties as JsonObject;
  const defs = (extra: Record<string, unknown>) => {
    schema.$defs = { ...(schema.$defs as JsonObject | undefined), ...extra };
  };
  if (depth === "nested") props[slot] = { type: "object", properties: { q: frag.x } };
  else if (depth === "items") props[slot] = { type: "array", items: frag.x };
  else if (depth === "ref") {
    props[slot] = { $ref: `#/$defs/${slot}` };
    defs({ [slot]: frag.x });
  } else props[slot] = frag.x;
  if (frag.defs) defs(frag.defs);
  if (frag.root) Object.assign(schema, frag.root);
}

const fragmentOf = (f: JsonObject | ((slot: string) => Fragment), slot: string): Fragment =>
  typeof f === "function" ? f(slot) : { x: f };

/** The map entry of one edit, or undefined when the map does not say how it is judged. */
function entryOf(edit: ToolEdit): MapEntry | undefined {
  const loc = edit.location;
  const key = `${edit.kind}${edit.variant ? `=${edit.variant}` : ""}`;
  if (loc.part === "schema") {
    const spec = keywordEdits[loc.keyword!]?.[edit.kind];
    if (!spec || edit.variant) return undefined;
    const side = loc.side!;
    const patch =
      (f: typeof spec.before): SidePatch =>
      (listing, slot) =>
        placeFragment(listing, side, loc.depth!, slot, fragmentOf(f, slot));
    return {
      edit,
      judge: spec[side],
      before: patch(spec.before),
      after: patch(spec.after),
    };
  }
  const spec: DescriptorEdit | undefined = descriptorEdits[loc.id]?.[key];
  if (!spec) return undefined;
  const patch =
    (p: DescriptorEdit["before"]): SidePatch =>
    (listing, slot) =>
      p(listing, toolOf(listing), slot);
  return {
    edit,
    judge: spec.judge,
    before: patch(spec.before),
    after: patch(spec.after),
    ...(spec.group ? { group: spec.group } : {}),
  };
}

/** Every edit of the model with its map entry; `unmapped` lists the edits the map misses. */
export function coverageMap(model: ToolLocation[] = toolModel()): {
  entries: MapEntry[];
  unmapped: string[];
  stale: string[];
} {
  const entries: MapEntry[] = [];
  const unmapped: string[] = [];
  for (const edit of editSpace(model)) {
    const entry = entryOf(edit);
    if (entry) entries.push(entry);
    else unmapped.push(edit.id);
  }
  // Map keys the model no longer has: a place or kind removed without the map following.
  const modelKeys = new Set(
    model.flatMap((l) =>
      l.edits.flatMap((e) =>
        e.variants.map((v) =>
          l.part === "schema" ? `${l.keyword}:${e.kind}` : `${l.id}:${e.kind}${v ? `=${v}` : ""}`,
        ),
      ),
    ),
  );
  const stale = [
    ...Object.entries(keywordEdits).flatMap(([k, kinds]) =>
      Object.keys(kinds).map((kind) => `${k}:${kind}`),
    ),
    ...Object.entries(descriptorEdits).flatMap(([id, kinds]) =>
      Object.keys(kinds).map((kind) => `${id}:${kind}`),
    ),
  ].filter((k) => !modelKeys.has(k));
  return { entries, unmapped, stale };
}

/**
 * Whether mapped edits can sit side by side in one case: distinct places, at most one per group,
 * and either the whole outputSchema edited or keywords inside it.
 */
export function composable(picked: readonly MapEntry[]): boolean {
  const places = new Set(picked.map((e) => e.edit.location.id));
  const groups = picked.flatMap((e) => (e.group ? [e.group] : []));
  const wholeOutput = picked.some((e) => e.edit.location.id === "outputSchema");
  const inOutput = picked.some((e) => e.edit.location.side === "outputSchema");
  return (
    places.size === picked.length &&
    new Set(groups).size === groups.length &&
    !(wholeOutput && inOutput)
  );
}

/** The listings of one edit, or of several composed side by side (each at its own slot). */
export function buildCase(entries: readonly MapEntry[]): { before: Listing; after: Listing } {
  const before = baseListing();
  const after = baseListing();
  entries.forEach((e, i) => {
    const slot = entries.length === 1 ? "p" : `p${i}`;
    e.before(before, slot);
    e.after(after, slot);
  });
  return { before, after };
}

/**
 * Diff rules that judge no edit of the Tool object, each with the reason: the consistency test
 * requires every rule to be named by the map or listed here, so a new rule is placed.
 */
export const rulesOutsideToolEdits: Readonly<Record<string, string>> = {
  ENVELOPE_NARROWED: "shared envelopes of a snapshot, not the Tool object",
  ENVELOPE_WIDENED: "shared envelopes of a snapshot, not the Tool object",
  ENVELOPE_REMOVED: "shared envelopes of a snapshot, not the Tool object",
  ENVELOPE_ADDED: "shared envelopes of a snapshot, not the Tool object",
  ENVELOPE_PROPERTY_ADDED: "shared envelopes of a snapshot, not the Tool object",
  SKILL_ADDED: "the skills tree of a snapshot",
  SKILL_CHANGED: "the skills tree of a snapshot",
  SKILL_REMOVED: "the skills tree of a snapshot",
  LISTING_CHANGED: "the directory listing of a snapshot (plugin.json)",
  UI_IMMUTABLE_BYTES_CHANGED: "the bytes served under a ui:// URI, not the descriptor",
  UI_SERVED_URI_MISSING: "the bytes served under a ui:// URI, not the descriptor",
  UI_RESOURCE_ADDED: "reported beside UI_BINDING_ADDED/CHANGED for a new resource family",
  SUPERSEDED_TOOL_REMOVED: "the project's snapshot records (supersededBy)",
  TOOL_REMOVED_AFTER_RETIREMENT: "the project's retirement records on a git baseline",
  TOOL_REFERENCE_ADDED: "an enum the generator fills with the contract's tool names",
  TOOL_REFERENCE_REMOVED: "an enum the generator fills with the contract's tool names",
  INPUT_PATTERN_CHANGED:
    "a pattern change without a counterexample (the map's pattern edits have one)",
  OUTPUT_PATTERN_CHANGED:
    "a pattern change without a counterexample (the map's pattern edits have one)",
  OUTPUT_PROPERTY_REMOVED:
    "a required output property removed: the map's properties:remove edits an optional one",
  OUTPUT_PROPERTY_ADDED_TO_CLOSED:
    "a property added to a closed output: the map's hosts are open objects",
};

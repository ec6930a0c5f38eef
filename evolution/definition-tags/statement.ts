import { isDeepStrictEqual } from "node:util";
import { sha256Hex } from "../../contract-model/canonical.js";
import type { ApprovedDefinitions } from "../approved-definitions.js";
import type { HolderDefinitionSet, ServedDefinitionSet } from "./approved-tags.js";
import { canonicalize } from "./canonical-json.js";
import { definitionTag } from "./definition-tag.js";
import { isSha256Tag } from "./tool-digest.js";

/** Format tag of `contracts/approved-definitions.json`. */
export const statementFormat = "skillpilot-approved-definitions/1";

/** The drafts this statement's tags and digests follow (experimental: they may change). */
export const trackedDrafts = {
  definitionTags:
    "https://github.com/modelcontextprotocol/transports-wg/blob/65a36f9eddc015fc1f646fd7532cd3c021ca98fb/proposals/XXXX-definition-tags.md",
  toolDigest:
    "https://github.com/modelcontextprotocol/transports-wg/blob/089f22f01c668765957037d79e6883b26542efcd/proposals/XXXX-primitive-digests-companion.md",
} as const;

/** One live approved definition set on one lane. */
export interface ApprovedSetEntry {
  kind: "published" | "frozen-draft";
  version: string;
  tag: string;
  /** Tool name → digest. */
  digests: Record<string, string>;
  /** `YYYY-MM-DD`, for a published release. */
  publishedAt?: string;
}

/** What one lane serves and which definition sets it still accepts. */
export interface LaneEntry {
  lane: string;
  /** The listing this lane serves (the current contract's listed tools); null when unknown. */
  served: { tag: string; digests: Record<string, string> } | null;
  approved: ApprovedSetEntry[];
}

/** A release whose definitions no host holds any longer. */
export interface RetiredEntry {
  version: string;
  publishedAt?: string;
  retiredAt: string;
  reason: string;
}

/** One append-only entry: the whole approved state after one release step. */
export interface StatementEntry {
  sequence: number;
  /** `sha256:` of the previous entry's canonical JSON; null for the first. */
  previous: string | null;
  /** `YYYY-MM-DD` of the step. */
  recordedAt: string;
  event: { kind: "published" | "retired"; version: string };
  lanes: LaneEntry[];
  retired: RetiredEntry[];
}

/** The statement document: signed whole, as its canonical JSON, in the compact JWS beside it. */
export interface StatementDocument {
  $comment: string;
  format: typeof statementFormat;
  tracking: typeof trackedDrafts;
  /** The key that signed this document (RFC 7638 thumbprint), and whether it is a development key. */
  signer: { kid: string; development: boolean };
  entries: StatementEntry[];
}

export const statementComment =
  "Written by skillpilot record-published and retire-definitions; append-only: earlier entries " +
  "never change. Signed (compact JWS, EdDSA) in approved-definitions.jws; verify with " +
  "skillpilot statement verify.";

/** `sha256:` of an entry's canonical JSON: what the next entry names as `previous`. */
export const entryHash = (entry: StatementEntry): string =>
  `sha256:${sha256Hex(canonicalize(entry))}`;

/** Input of the next entry: the step, its date, and the state after it. */
export interface NextEntryInput {
  event: StatementEntry["event"];
  recordedAt: string;
  lanes: readonly string[];
  served: ServedDefinitionSet | null;
  sets: readonly HolderDefinitionSet[];
  defs: ApprovedDefinitions;
  /** Publication date of each published version (from the release index). */
  publishedAt: ReadonlyMap<string, string>;
}

/** The entry that follows `entries`, describing the approved state after one step. */
export function nextEntry(
  entries: readonly StatementEntry[],
  input: NextEntryInput,
): StatementEntry {
  const last = entries.at(-1);
  return {
    sequence: entries.length + 1,
    previous: last ? entryHash(last) : null,
    recordedAt: input.recordedAt,
    event: input.event,
    lanes: input.lanes.map((lane) => ({
      lane,
      served: input.served ? { tag: input.served.tags[lane], digests: input.served.digests } : null,
      approved: input.sets.map((s) => ({
        kind: s.holder.kind,
        version: s.holder.version,
        tag: s.tags[lane],
        digests: s.digests,
        ...(s.holder.kind === "published" && input.publishedAt.has(s.holder.version)
          ? { publishedAt: input.publishedAt.get(s.holder.version) }
          : {}),
      })),
    })),
    retired: input.defs.retired.map((r) => ({
      version: r.version,
      ...(input.publishedAt.has(r.version)
        ? { publishedAt: input.publishedAt.get(r.version) }
        : {}),
      retiredAt: r.retiredAt,
      reason: r.reason,
    })),
  };
}

/**
 * What is wrong with a statement document on its own (shape, sequence, the hash chain, every tag
 * recomputed from its digests and lane), or an empty list. Signature checks are separate.
 */
export function statementProblems(doc: unknown): string[] {
  if (!isRecord(doc) || doc.format !== statementFormat)
    return [`not a ${statementFormat} statement`];
  if (
    !isRecord(doc.signer) ||
    typeof doc.signer.kid !== "string" ||
    typeof doc.signer.development !== "boolean"
  )
    return ["the statement names no signer"];
  if (!Array.isArray(doc.entries) || doc.entries.length === 0)
    return ["the statement has no entries"];
  const problems: string[] = [];
  let previous: string | null = null;
  for (const [i, raw] of (doc.entries as unknown[]).entries()) {
    const at = `entry ${i + 1}`;
    if (!isRecord(raw)) return [...problems, `${at} is not an object`];
    const entry = raw as unknown as StatementEntry;
    if (entry.sequence !== i + 1) problems.push(`${at} has sequence ${String(entry.sequence)}`);
    if (entry.previous !== previous)
      problems.push(`${at} does not name the hash of the entry before it (the chain is broken)`);
    if (!Array.isArray(entry.lanes) || !Array.isArray(entry.retired))
      return [...problems, `${at} has no lanes or retired list`];
    for (const lane of entry.lanes) {
      if (
        !isRecord(lane) ||
        typeof lane.lane !== "string" ||
        lane.lane === "" ||
        !Array.isArray(lane.approved)
      ) {
        problems.push(`${at} has a malformed lane`);
        continue;
      }
      const sets = [
        ...(lane.served ? [{ ...lane.served, version: "served" }] : []),
        ...lane.approved,
      ];
      for (const set of sets) problems.push(...setProblems(set, lane.lane, at));
    }
    try {
      previous = entryHash(entry);
    } catch (e) {
      return [...problems, `${at} has no canonical form: ${(e as Error).message}`];
    }
  }
  return problems;
}

function setProblems(set: unknown, lane: string, at: string): string[] {
  if (!isRecord(set) || !isRecord(set.digests) || typeof set.tag !== "string")
    return [`${at}: a definition set on ${lane} has no tag or digests`];
  const digests = Object.values(set.digests);
  if (!digests.every(isSha256Tag))
    return [`${at}: ${String(set.version)} on ${lane} has a malformed digest`];
  let tag: string;
  try {
    tag = definitionTag(lane, digests as string[]);
  } catch (e) {
    return [`${at}: ${String(set.version)} on ${lane}: ${(e as Error).message}`];
  }
  return tag === set.tag
    ? []
    : [`${at}: the tag of ${String(set.version)} on ${lane} is not its digests' tag`];
}

/**
 * How `next` rewrites `earlier`'s history, or undefined when it only appends: every entry of the
 * earlier statement must be in the later one, unchanged, at the same place.
 */
export function historyRewrite(
  earlier: StatementDocument,
  next: StatementDocument,
): string | undefined {
  if (next.entries.length < earlier.entries.length)
    return `it has ${next.entries.length} entries, fewer than the ${earlier.entries.length} recorded before`;
  const changed = earlier.entries.findIndex((e, i) => !isDeepStrictEqual(e, next.entries[i]));
  return changed === -1 ? undefined : `entry ${changed + 1} differs from the one recorded before`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

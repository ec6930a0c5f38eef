import { sha256Hex } from "../../contract-model/canonical.js";
import { canonicalize } from "./canonical-json.js";
import { isSha256Tag, toolDigest } from "./tool-digest.js";

/** The scheme name every definition tag input carries, so a later scheme can never collide. */
export const definitionTagScheme = "skillpilot-definition-tag/1";

/**
 * The definition tag of one served definition set: one provider lane's complete `tools/list`.
 * `sha256:` + the lowercase hex SHA-256 of the RFC 8785 canonical JSON of
 * `{"digests": [sorted tool digests], "lane": lane, "method": "tools/list", "scheme": …}`.
 *
 * It depends on the definitions alone — never on list order, paging, TTL, time, instance or
 * process — so every instance serving the same definitions on the same lane gives the same tag,
 * across restarts. The lane is part of it because a lane decides what its listing shows (its
 * `_meta` projection) and a tag must never be taken for another lane's; tool `_meta` itself is
 * not (the per-tool digests leave it out). An empty set has a tag too. Throws TypeError for a
 * digest that is not `sha256:<hex>` or that appears twice (one list never holds a tool twice).
 */
export function definitionTag(lane: string, digests: Iterable<string>): string {
  if (typeof lane !== "string" || lane === "")
    throw new TypeError("a lane id is a non-empty string");
  const sorted = [...digests].sort();
  sorted.forEach((d, i) => {
    if (!isSha256Tag(d)) throw new TypeError(`not a tool digest: ${String(d).slice(0, 80)}`);
    if (i > 0 && sorted[i - 1] === d) throw new TypeError(`the digest ${d} appears twice`);
  });
  const input = { digests: sorted, lane, method: "tools/list", scheme: definitionTagScheme };
  return `sha256:${sha256Hex(canonicalize(input))}`;
}

/** One definition set: each tool's digest by name, and the set's tag on one lane. */
export interface TaggedDefinitionSet {
  lane: string;
  tag: string;
  /** Tool name → digest, sorted by name. */
  digests: Record<string, string>;
}

/**
 * The tagged definition set of a tools listing on a lane: each tool's digest (by name) and the
 * set's tag. Throws TypeError for two tools of one name.
 */
export function tagDefinitionSet(
  lane: string,
  tools: readonly Record<string, unknown>[],
): TaggedDefinitionSet {
  const byName = new Map<string, string>();
  for (const tool of tools) {
    const digest = toolDigest(tool);
    const name = tool.name as string;
    if (byName.has(name)) throw new TypeError(`the tool ${name} is listed twice`);
    byName.set(name, digest);
  }
  const digests = Object.fromEntries([...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { lane, tag: definitionTag(lane, byName.values()), digests };
}

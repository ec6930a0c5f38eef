/** The request `_meta` key under which a client sends the tags it holds, keyed by method. */
export const knownTagsMetaKey = "io.modelcontextprotocol/knownTags";
/** The result `_meta` key (and rejection `data` member) naming the methods whose tags are stale. */
export const staleTagsMetaKey = "io.modelcontextprotocol/staleTags";

/** Bounds on what a request's known tags may hold before the excess is ignored. */
export interface KnownTagsLimits {
  /** Most methods read (default 16); further entries are ignored. */
  maxEntries?: number;
  /** Longest method name or tag read (default 256 characters); longer ones are ignored. */
  maxLength?: number;
}

/** The known tags of a request, and what was ignored in them (for the log, never an error). */
export interface KnownTags {
  /** Method → tag, only string tags within the limits. */
  tags: ReadonlyMap<string, string>;
  /** Entries ignored and why: `tools/list: not a string`, `knownTags: not an object`. */
  ignored: string[];
}

/**
 * The tags a request says it holds, from its `_meta`. Known tags are hints, never preconditions:
 * a missing or malformed map, a non-string tag, an over-long entry or entries beyond the limit are
 * ignored (reported in `ignored`), never an error, so malformed hints can never fail a request.
 */
export function readKnownTags(meta: unknown, limits: KnownTagsLimits = {}): KnownTags {
  const maxEntries = limits.maxEntries ?? 16;
  const maxLength = limits.maxLength ?? 256;
  const tags = new Map<string, string>();
  const ignored: string[] = [];
  if (!isRecord(meta) || !Object.hasOwn(meta, knownTagsMetaKey)) return { tags, ignored };
  const map = meta[knownTagsMetaKey];
  if (!isRecord(map)) return { tags, ignored: ["knownTags: not an object"] };
  for (const [method, tag] of Object.entries(map)) {
    const label = method.slice(0, 64);
    if (tags.size >= maxEntries) ignored.push(`${label}: more than ${maxEntries} entries`);
    else if (typeof tag !== "string") ignored.push(`${label}: not a string`);
    else if (method.length > maxLength || tag.length > maxLength)
      ignored.push(`${label}: longer than ${maxLength} characters`);
    else tags.set(method, tag);
  }
  return { tags, ignored };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

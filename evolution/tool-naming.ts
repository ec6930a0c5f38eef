/**
 * How outputs name tools for a caller. A host calls a tool from the definitions it approved and may
 * not have rescanned since, so a result must never name a tool outside the caller's definition set:
 * its own output schema (the contract's tool-name enum as that set knows it) would refuse it, and
 * the model would be steered to a tool it cannot call.
 *
 * The server cannot see which set a caller holds, but the called tool narrows it down: the caller
 * holds one of the live definition sets that contain the called tool (each published release not
 * retired, the frozen draft, and the current contract for its current tools). A tool name is sent
 * as is when every one of those sets holds it; otherwise a renamed tool is sent under the name of
 * the tool it superseded (still callable through its adapter), and a tool some candidate set lacks
 * altogether is left out of lists of actions.
 */

/** Tool names of one live definition set (the tools a release package or the draft lists). */
export type DefinitionSet = ReadonlySet<string>;

/** What to change in a result for callers of one tool: rename, and names to leave out of lists. */
export interface ToolNaming {
  rename: ReadonlyMap<string, string>;
  omit: ReadonlySet<string>;
  /** The renamed tools as whole words inside text (never inside a longer token). */
  inText: RegExp;
}

/**
 * Per called tool, how results name tools: absent where every candidate set holds every current
 * tool (the usual case: no work per call).
 */
export function toolNamings(
  /** Current tools of the served contract. */
  current: readonly string[],
  /** Superseded tool → its current replacement. */
  superseded: Readonly<Record<string, string>>,
  /** The live approved definition sets of this contract major. */
  live: readonly DefinitionSet[],
): Map<string, ToolNaming> {
  // The current contract answers every name it declares, superseded ones included.
  const currentSet: DefinitionSet = new Set([...current, ...Object.keys(superseded)]);
  const predecessorOf = new Map<string, string>();
  for (const [old, replacement] of Object.entries(superseded))
    if (!predecessorOf.has(replacement)) predecessorOf.set(replacement, old);
  // A caller of a superseded tool that no record names holds a set from before the rename.
  const beforeRename = (old: string): DefinitionSet =>
    new Set([...current.filter((n) => n !== superseded[old]), old]);
  const out = new Map<string, ToolNaming>();
  for (const called of [...current, ...Object.keys(superseded)]) {
    const holding = live.filter((set) => set.has(called));
    const candidates = current.includes(called)
      ? [currentSet, ...holding]
      : holding.length > 0
        ? holding
        : [beforeRename(called)];
    const rename = new Map<string, string>();
    const omit = new Set<string>();
    for (const name of current) {
      if (candidates.every((set) => set.has(name))) continue;
      const old = predecessorOf.get(name);
      if (old !== undefined && candidates.every((set) => set.has(old))) rename.set(name, old);
      else omit.add(name);
    }
    if (rename.size > 0 || omit.size > 0)
      out.set(called, { rename, omit, inText: wordsOf([...rename.keys()]) });
  }
  return out;
}

/** Whole-word occurrences of the names: not preceded or followed by a token character. */
function wordsOf(names: readonly string[]): RegExp {
  // Tool names are snake_case (the generator's rule), so they need no escaping.
  const alternatives = names.length > 0 ? names.join("|") : "(?!)";
  return new RegExp(`(?<![A-Za-z0-9_.~-])(?:${alternatives})(?![A-Za-z0-9_.~-])`, "g");
}

/**
 * A result as the caller's definitions name tools: every string equal to a renamed tool becomes
 * the old name, a tool name inside longer text too (whole identifiers only), and arrays drop the
 * names the caller's set lacks. Returns a new value; the input is not changed.
 */
export function nameToolsFor(value: unknown, naming: ToolNaming): unknown {
  if (typeof value === "string") {
    if (naming.rename.has(value)) return naming.rename.get(value);
    return value.replace(naming.inText, (word) => naming.rename.get(word) ?? word);
  }
  if (Array.isArray(value))
    return value
      .filter((v) => !(typeof v === "string" && naming.omit.has(v)))
      .map((v) => nameToolsFor(v, naming));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = nameToolsFor(v, naming);
    return out;
  }
  return value;
}

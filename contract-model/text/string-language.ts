import { JS, NFA, type CharSet, type WordSet } from "refa";

/**
 * What the language of a JSON Schema `pattern` can hold, decided on the regular language itself
 * (refa: a JS RegExp → finite automaton), not on sample strings: whether some string it matches
 * holds words separated by white space, a run of letters outside ASCII (scripts written without
 * spaces), prose carried in a URL path (`%20`), or a plain word. Patterns are Unicode
 * expressions matched as a search (JSON Schema), so an unanchored side admits anything.
 */

/** What a string field's language is asked to hold. */
export type ProseShape = "spaced" | "script" | "url" | "word";

const shapes: Record<ProseShape, string> = {
  // Two non-space characters with white space between them: words of a sentence.
  spaced: "[^]*\\S\\s+\\S[^]*",
  // Two consecutive characters beyond ASCII: Cyrillic, Greek, Han, Devanagari … prose.
  script: "[^]*[^\\0-\\x7F]{2}[^]*",
  // A URL whose path carries a percent-encoded space: prose hidden in a link.
  url: "[a-z][a-z0-9+.-]*://[^/?#\\s]+/[^]*[A-Za-z]%20[A-Za-z][^]*",
  // One plain word of letters (an item of a list of words).
  word: "\\p{L}{2,12}",
};

/**
 * Bounded repetition above this is read as unbounded: it only widens the language and keeps
 * automata small (a 4096-character capability body would otherwise build thousands of states).
 * Lower bounds are kept (a witness must be long enough), up to {@link MIN_BOUND}.
 */
const WIDEN_ABOVE = 64;
/** A lower bound above this is read as this bound (widening only; the caller checks the value). */
const MIN_BOUND = 1024;
/** Most AST nodes one pattern may parse into before it is given up as undecidable here. */
const MAX_NODES = 200_000;

type Automaton = NFA;

/** Thrown when a pattern cannot be analysed (syntax refa does not model, too large). */
export class UndecidedPattern extends Error {}

function widen(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  const n = node as Record<string, unknown>;
  if (n.type === "Quantifier") {
    if (typeof n.max === "number" && n.max > WIDEN_ABOVE) n.max = Number.POSITIVE_INFINITY;
    if (typeof n.min === "number" && n.min > MIN_BOUND) n.min = MIN_BOUND;
  }
  for (const key of ["alternatives", "elements"]) {
    const list = n[key];
    if (Array.isArray(list)) for (const child of list) widen(child);
  }
}

/** Split a pattern at its top-level `|` (outside groups and classes, escapes respected). */
function topLevelAlternatives(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}

/** A search pattern as a whole-string expression: each unanchored side admits anything. */
function wholeString(pattern: string): string {
  return topLevelAlternatives(pattern)
    .map((alt) => {
      let body = alt;
      const start = body.startsWith("^");
      if (start) body = body.slice(1);
      const escapedEnd = /(^|[^\\])(\\\\)*\\\$$/.test(body);
      const end = body.endsWith("$") && !escapedEnd;
      if (end) body = body.slice(0, -1);
      return `${start ? "" : "[^]*"}(?:${body})${end ? "" : "[^]*"}`;
    })
    .join("|");
}

function automaton(source: string): Automaton {
  try {
    const { expression, maxCharacter } = JS.Parser.fromLiteral({ source, flags: "u" }).parse({
      backreferences: "disable",
      assertions: "ignore",
      maxNodes: MAX_NODES,
    });
    widen(expression);
    return NFA.fromRegex(
      expression,
      { maxCharacter },
      { assertions: "ignore", infinityThreshold: WIDEN_ABOVE + 1 },
    );
  } catch (error) {
    throw new UndecidedPattern(error instanceof Error ? error.message : String(error));
  }
}

const shapeAutomata = new Map<ProseShape, Automaton>();
function shapeAutomaton(shape: ProseShape): Automaton {
  let fa = shapeAutomata.get(shape);
  if (!fa) {
    fa = automaton(shapes[shape]);
    shapeAutomata.set(shape, fa);
  }
  return fa;
}

const patternAutomata = new Map<string, Automaton>();
function patternAutomaton(pattern: string): Automaton {
  let fa = patternAutomata.get(pattern);
  if (!fa) {
    fa = automaton(wholeString(pattern));
    patternAutomata.set(pattern, fa);
  }
  return fa;
}

/** Characters a witness prefers, so it reads as what it stands for (letters, a plain space). */
const preferred = [..."aeb ABZ%/:.", "\u4f60", "\u044f"].map((c) => c.codePointAt(0) as number);

function pick(set: CharSet): string {
  for (const c of preferred) if (set.has(c)) return String.fromCodePoint(c);
  return String.fromCodePoint(set.ranges[0].min);
}

const wordOf = (set: WordSet) => set.map(pick).join("");

/**
 * The shortest string every pattern of `patterns` matches (as a search) that has the `shape`, or
 * undefined when their languages hold none. Throws {@link UndecidedPattern} when a pattern cannot
 * be analysed.
 */
export function proseWitness(patterns: readonly string[], shape: ProseShape): string | undefined {
  let fa: Automaton = shapeAutomaton(shape);
  for (const pattern of patterns) {
    try {
      fa = NFA.fromIntersection(fa, patternAutomaton(pattern));
    } catch (error) {
      if (error instanceof UndecidedPattern) throw error;
      throw new UndecidedPattern(error instanceof Error ? error.message : String(error));
    }
    if (fa.isEmpty) return undefined;
  }
  for (const set of fa.wordSets()) return wordOf(set);
  return undefined;
}

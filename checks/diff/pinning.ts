import type { DiffRule, Pinning } from "../../diagnostics/rule.js";
import { jsonEqual } from "../../json-schema/schema-facts.js";
import { walkSchema } from "../../json-schema/walk.js";

/**
 * Why a text change is behavioural for a client that pins definitions: it adds a link, text that
 * instructs the model, or a reference to a tool the text did not name before; or, in schema
 * documentation, it changes a `default` (what an omitted argument or field now means).
 */
export type PinningReason = "url" | "instruction" | "tool-reference" | "default";

/** A finding's class for pinning clients, with the reasons when a text change made it behavioural. */
export interface PinningVerdict {
  pinning: Pinning;
  pinningReasons?: PinningReason[];
}

/** Every string inside a value (object values and array items, not keys). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === "object")
    for (const v of Object.values(value)) strings(v, out);
  return out;
}

const urlPattern = /\b(?:https?|ftp):\/\/[^\s"'<>()[\]{}]+|\bwww\.[a-z0-9-]+\.[^\s"'<>()[\]{}]+/gi;

// Text that addresses the model's conduct rather than describing the tool: an obligation put to
// "you", a demand to set other instructions aside, prompt markup, a sentence that opens with a
// command about how to behave, or a request to move secrets around.
const instructionAnywhere = [
  /\byou (?:must|should|need to|have to|are required to|will need to)\b/i,
  /\b(?:ignore|disregard|forget|override)\b[^.!?]{0,60}\b(?:instructions?|rules?|prompts?|guidelines?)\b/i,
  /<\/?(?:important|system|instructions?|secret)>|\[(?:system|important)\]|\bsystem prompt\b/i,
  /\b(?:read|send|upload|include|pass|forward|share)\b[^.!?]{0,40}(?:~\/|\.ssh\b|\.env\b|\bapi[_ -]?keys?\b|\bpasswords?\b|\bcredentials?\b|\bprivate keys?\b)/i,
];
const instructionOpening =
  /^(?:(?:please|important:?|note:?)\s+)?(?:always|never|do not|don't|must|make sure|be sure|remember to|before (?:using|calling|answering|responding)|instead of|first call|do this)\b/i;

// Sentences and clauses (split after `.!?;:`), so "…; never leave it empty" opens a clause.
const sentences = (texts: readonly string[]): Set<string> =>
  new Set(
    texts
      .flatMap((t) => t.split(/(?<=[.!?;:])\s+|\n+/))
      .map((s) => s.trim().replace(/\s+/g, " ").toLowerCase())
      .filter(Boolean),
  );

const isInstruction = (sentence: string) =>
  instructionOpening.test(sentence) || instructionAnywhere.some((p) => p.test(sentence));

/** Identifier-like words of some texts (tool names are compared against these, not searched for). */
const words = (texts: readonly string[]): Set<string> =>
  new Set(
    texts.flatMap((t) =>
      (t.match(/[A-Za-z0-9_][A-Za-z0-9_.-]*/g) ?? []).map((w) => w.replace(/[.-]+$/, "")),
    ),
  );

/**
 * Judge a text change for pinning clients: behavioural when the new text holds a URL, an
 * instruction-like sentence, or a reference to one of `toolNames` (other than `self`) that the old
 * text did not; else descriptive.
 */
export function judgeText(
  before: unknown,
  after: unknown,
  toolNames: ReadonlySet<string>,
  self?: string,
): PinningVerdict {
  const was = strings(before);
  const now = strings(after);
  const reasons: PinningReason[] = [];
  const oldUrls = new Set(was.flatMap((t) => t.match(urlPattern) ?? []));
  if (now.some((t) => (t.match(urlPattern) ?? []).some((u) => !oldUrls.has(u))))
    reasons.push("url");
  const oldSentences = sentences(was);
  if ([...sentences(now)].some((s) => !oldSentences.has(s) && isInstruction(s)))
    reasons.push("instruction");
  const oldWords = words(was);
  if ([...words(now)].some((w) => w !== self && toolNames.has(w) && !oldWords.has(w)))
    reasons.push("tool-reference");
  return reasons.length > 0
    ? { pinning: "behavioural", pinningReasons: reasons }
    : { pinning: "descriptive" };
}

/** Every `default` of a schema by the pointer of the node that declares it. */
function defaultsOf(schema: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  walkSchema(schema, "", (node, pointer) => {
    if ("default" in node) out.set(pointer, node.default);
  });
  return out;
}

/** True when a schema's `default`s differ between two sides (added, removed or changed). */
function defaultsChanged(before: unknown, after: unknown): boolean {
  const [a, b] = [defaultsOf(before), defaultsOf(after)];
  return a.size !== b.size || [...a].some(([at, v]) => !b.has(at) || !jsonEqual(v, b.get(at)));
}

/** The class of one finding: the rule's own, or for a `by-text` rule the judgement of its text. */
export function pinningOf(
  rule: DiffRule,
  before: unknown,
  after: unknown,
  toolNames: () => ReadonlySet<string>,
  self?: string,
): PinningVerdict {
  if (rule.pinning !== "by-text") return { pinning: rule.pinning };
  const verdict = judgeText(before, after, toolNames(), self);
  if (rule.id !== "SCHEMA_DOCS_CHANGED" || !defaultsChanged(before, after)) return verdict;
  return { pinning: "behavioural", pinningReasons: [...(verdict.pinningReasons ?? []), "default"] };
}

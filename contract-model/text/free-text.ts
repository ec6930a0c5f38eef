import type { Ajv2020 } from "ajv/dist/2020.js";
import { pointerJoin } from "../../diagnostics/diagnostic.js";
import { createAjv } from "../../json-schema/ajv.js";
import { isObject } from "../../json-schema/walk.js";
import { type ProseShape, proseWitness, UndecidedPattern } from "./string-language.js";
import { WORD_LIST_BOUND } from "../trace/prose-value.js";

/**
 * Free text in tool inputs (C5, G11), judged by what a field's language CAN hold, not by whether it
 * matches a list of sample sentences: a string field is prose-capable when its pattern's regular
 * language (string-language.ts) holds words separated by white space, a run of letters of a script
 * beyond ASCII, or — for a URL format — prose in a percent-encoded path; an array of strings is
 * prose-capable when its items admit plain words and it admits more of them than a small bound.
 * Exempt: `enum` and `const` (finite by declaration), formats with a fixed grammar (uuid,
 * date-time, email …), and opaque tokens, whose alphabets hold none of that. Every verdict is
 * checked on a real value (the witness) against the whole field with the project's Ajv, so the
 * other keywords (types, lengths, `not`, `anyOf` …) count too. Shared by the generator's
 * FREE_TEXT_INPUT (schema sources) and the gate lint's GATE_FREE_TEXT_INPUT (any tools/list).
 */

/** Formats whose grammar holds no spaces, no non-ASCII runs and no free path. */
const fixedGrammarFormats = new Set([
  "uuid",
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "byte",
]);
/** Formats of links: prose hides in their path. */
const urlFormats = new Set(["uri", "uri-reference", "iri", "iri-reference", "url"]);

/** Witnesses of prose-shaped strings, for a field whose pattern could not be analysed. */
const shapeSamples = ["a a", "\u4f60\u4f60", "https://a.example/a%20a"];

/** A field of an input schema that accepts ordinary prose. */
export interface FreeTextField {
  /** JSON pointer of the field's schema, relative to the schema judged. */
  pointer: string;
  /** Where the value sits in an input (`note`, `assessments[].feedback`, `(root)`). */
  field: string;
  /** The first prose value the field accepts: a sample, or an array holding one. */
  accepted: unknown;
}

type Validate = (value: unknown) => unknown;
type Visit = (node: unknown, pointer: string, field: string) => void;

const member = (field: string, name: string) => (field ? `${field}.${name}` : name);

/**
 * Visit every value position of `node`: the schemas an instance value must satisfy as a whole
 * (the root, property values, items, additional properties). Applicator branches (`allOf`,
 * `anyOf`, `then`, `$defs`, …) only constrain a position together with their siblings, so they are
 * searched for nested positions but never judged alone. `not`, `if` and `contains` accept nothing
 * by themselves (an item matching `contains` must satisfy `items` too) and are skipped.
 */
function walkPositions(node: unknown, pointer: string, field: string, visit: Visit): void {
  visit(node, pointer, field);
  walkNested(node, pointer, field, visit);
}

function walkNested(node: unknown, pointer: string, field: string, visit: Visit): void {
  if (!isObject(node)) return;
  const at = (...segments: (string | number)[]) => pointerJoin(pointer, ...segments);
  for (const [k, of] of [
    ["properties", (name: string) => member(field, name)],
    ["patternProperties", () => member(field, "*")],
    ["dependentSchemas", () => field],
    ["$defs", (name: string) => `$defs.${name}`],
    ["definitions", (name: string) => `definitions.${name}`],
  ] as const) {
    const map = node[k];
    if (!isObject(map)) continue;
    for (const name of Object.keys(map)) {
      const sub = map[name];
      if (k === "properties" || k === "patternProperties")
        walkPositions(sub, at(k, name), of(name), visit);
      else walkNested(sub, at(k, name), of(name), visit);
    }
  }
  for (const k of ["additionalProperties", "unevaluatedProperties"] as const)
    if (k in node) walkPositions(node[k], at(k), member(field, "*"), visit);
  for (const k of ["items", "unevaluatedItems"] as const)
    if (k in node) walkPositions(node[k], at(k), `${field}[]`, visit);
  if (Array.isArray(node.prefixItems))
    for (const [i, s] of node.prefixItems.entries())
      walkPositions(s, at("prefixItems", i), `${field}[${i}]`, visit);
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const arr = node[k];
    if (Array.isArray(arr))
      for (const [i, s] of arr.entries()) walkNested(s, at(k, i), field, visit);
  }
  for (const k of ["then", "else"] as const)
    if (k in node) walkNested(node[k], at(k), field, visit);
}

/** A URI fragment for a JSON pointer, as Ajv resolves `key#fragment`. */
const fragment = (pointer: string) =>
  pointer
    .split("/")
    .map((s) => encodeURIComponent(s))
    .join("/");

/**
 * Judges input schemas with the project's Ajv: formats validated, strict mode off (a tools/list
 * may carry vendor keywords). One judge per run; every schema is registered under a fresh key.
 */
export class FreeTextJudge {
  private readonly ajv: Ajv2020 = createAjv({
    strict: false,
    allowUnionTypes: true,
    validateSchema: false,
    logger: false,
    code: { optimize: false },
  });
  private next = 0;
  /**
   * Verdicts of self-contained fields (no `$ref`) by their JSON: tools share most of their fields
   * (session ids, request ids, envelopes), and compiling each copy again made a run superlinear.
   */
  private readonly verdicts = new Map<string, { accepted: unknown }>();

  /**
   * Every value position of `schema` (a self-contained input schema: local `$ref`s only) that can
   * hold prose. A string, an untyped field, `{}`, `not: {type: number}`, a format that holds prose
   * (`regex`, `uri` without a bounding pattern, an unknown format), an array without `items` and an
   * unbounded list of words all count. `enum` and `const` fields are finite by declaration and
   * exempt (exact-string-match.rule.ts judges enum values that are phrases).
   */
  fields(schema: unknown): FreeTextField[] {
    const key = `free-text:${this.next++}`;
    let registered = false;
    if (isObject(schema)) {
      const { $id: _id, $schema: _schema, ...root } = schema;
      try {
        this.ajv.addSchema(root, key);
        registered = true;
      } catch {
        // judged field by field by shape below
      }
    }
    const found: FreeTextField[] = [];
    walkPositions(schema, "", "", (node, pointer, field) => {
      const accepted = this.verdict(node, () =>
        registered ? this.accepted(node, key, pointer) : acceptedByShape(node),
      );
      if (accepted !== undefined) found.push({ pointer, field: field || "(root)", accepted });
    });
    // Each schema is judged once: keeping it registered would only grow the instance.
    if (registered) this.ajv.removeSchema(key);
    return found;
  }

  /** `judge(node)`, remembered for a node without references (its verdict is its own). */
  private verdict(node: unknown, judge: () => unknown): unknown {
    const text = JSON.stringify(node);
    if (text === undefined || text.includes('"$ref"')) return judge();
    let known = this.verdicts.get(text);
    if (!known) {
      known = { accepted: judge() };
      this.verdicts.set(text, known);
    }
    return known.accepted;
  }

  private accepted(node: unknown, key: string, pointer: string): unknown {
    if (node === true) return shapeSamples[0];
    if (!isObject(node) || "enum" in node || "const" in node) return undefined;
    const types = [node.type].flat();
    const admits = (t: string) => node.type === undefined || types.includes(t);
    if (!admits("string") && !admits("array")) return undefined;
    const validate = this.compile(node, key, pointer);
    const holds = (value: unknown) => (validate ? validate(value) === true : true);
    const strings = admits("string") ? stringWitnesses(node) : [];
    const string = strings.find(holds);
    if (string !== undefined) return string;
    if (!admits("array")) return undefined;
    if (!("items" in node) && !("prefixItems" in node))
      return (strings.length > 0 ? strings : shapeSamples).map((s) => [s]).find(holds);
    const words = wordList(node);
    return words && holds(words) ? words : undefined;
  }

  /**
   * The validator of the field at `pointer`, compiled in its document (local `$ref`s resolve);
   * alone when something elsewhere in the document does not compile; undefined when neither works.
   */
  private compile(node: object, key: string, pointer: string): Validate | undefined {
    try {
      return this.ajv.getSchema(`${key}#${fragment(pointer)}`);
    } catch {
      try {
        return this.ajv.compile(node);
      } catch {
        return undefined;
      }
    }
  }
}

/** The patterns a string at `node` must match: its own and those of its `allOf` branches. */
function patternsOf(node: Record<string, unknown>): string[] {
  const own = typeof node.pattern === "string" ? [node.pattern] : [];
  const all = Array.isArray(node.allOf) ? node.allOf : [];
  return [
    ...own,
    ...all.flatMap((b) => (isObject(b) && typeof b.pattern === "string" ? [b.pattern] : [])),
  ];
}

/**
 * Prose-shaped strings the field's language holds (shortest first, padded to its minLength), from
 * its patterns and, in turn, those of each `anyOf`/`oneOf` branch. None for an enum, a const or a
 * fixed-grammar format; shape samples when a pattern cannot be analysed (Ajv then decides).
 */
export function stringWitnesses(node: Record<string, unknown>): string[] {
  if ("enum" in node || "const" in node) return [];
  const format = typeof node.format === "string" ? node.format : undefined;
  if (format && fixedGrammarFormats.has(format)) return [];
  const shapes: ProseShape[] = format && urlFormats.has(format) ? ["url"] : ["spaced", "script"];
  const base = patternsOf(node);
  const branches = [node.anyOf, node.oneOf].flatMap((list) =>
    Array.isArray(list) ? list.filter(isObject).map((b) => patternsOf(b)) : [],
  );
  const variants = [base, ...branches.filter((p) => p.length > 0).map((p) => [...base, ...p])];
  const min = typeof node.minLength === "number" ? node.minLength : 0;
  const out: string[] = [];
  try {
    for (const patterns of variants)
      for (const shape of shapes) {
        const w = proseWitness(patterns, shape);
        if (w !== undefined) out.push(w.length < min ? w + "a".repeat(min - w.length) : w);
      }
  } catch (error) {
    if (!(error instanceof UndecidedPattern)) throw error;
    return shapeSamples;
  }
  return [...new Set(out)];
}

/**
 * A list of plain words the array at `node` accepts, when its items are strings that admit a word
 * (not an enum, a const or a fixed format, and not prose-capable one by one: those are judged as
 * their own position) and it admits more than {@link WORD_LIST_BOUND} of them.
 */
function wordList(node: Record<string, unknown>): string[] | undefined {
  const items = node.items;
  if (!isObject(items) || "enum" in items || "const" in items) return undefined;
  if (typeof node.maxItems === "number" && node.maxItems <= WORD_LIST_BOUND) return undefined;
  const types = [items.type].flat();
  if (items.type !== undefined && !types.includes("string")) return undefined;
  if (typeof items.format === "string" && fixedGrammarFormats.has(items.format)) return undefined;
  if (stringWitnesses(items).length > 0) return undefined;
  let word: string | undefined;
  try {
    word = proseWitness(patternsOf(items), "word");
  } catch (error) {
    if (!(error instanceof UndecidedPattern)) throw error;
    word = "aa";
  }
  if (word === undefined) return undefined;
  const count = Math.max(
    WORD_LIST_BOUND + 1,
    typeof node.minItems === "number" ? node.minItems : 0,
  );
  // Distinct words, for lists with uniqueItems: the same word with a growing tail of its letter.
  return Array.from({ length: count }, (_, i) => word + word.slice(-1).repeat(i));
}

/**
 * The fallback when Ajv cannot compile a field (a pattern Ajv rejects, a draft-07 tuple): a
 * string-typed field is free text when its language holds prose (its format is not checked here).
 */
function acceptedByShape(node: unknown): unknown {
  if (node === true) return shapeSamples[0];
  if (!isObject(node) || "enum" in node || "const" in node) return undefined;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (!types.includes("string")) return undefined;
  return stringWitnesses(node)[0];
}

import type { Ajv2020 } from "ajv/dist/2020.js";
import { pointerJoin } from "../diagnostics/diagnostic.js";
import { createAjv } from "../json-schema/ajv.js";
import { isObject } from "../json-schema/walk.js";

/**
 * Free text in tool inputs (C5, G11), decided by behaviour: a field is free text when the project's
 * Ajv accepts ordinary prose for it, whatever its keywords look like. Shared by the generator's
 * FREE_TEXT_INPUT (schema sources) and the gate lint's GATE_FREE_TEXT_INPUT (any tools/list).
 */

const lowercaseSentence = "i think i understood the rebase step";

/**
 * Ordinary chat prose, short to long: replies of a few characters, sentences in English and German
 * with and without punctuation, all-lowercase ASCII, all caps, multi-line text, Cyrillic, Greek,
 * Devanagari and CJK (without spaces), emoji, right-to-left scripts, and prose carried in a URL or a
 * path. Every sample holds a character no identifier alphabet does (a space, a non-ASCII letter,
 * `%`), so identifiers with prefixes and fixed alphabets (`^sps_[A-Za-z0-9_-]{22,64}$`, the slug
 * `^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$`), uuid, email, date-time and the like reject them all.
 * Words joined by `-`, `_` or `.` are left out on purpose: a slug pattern accepts them.
 */
export const proseSamples: readonly string[] = [
  "I see",
  "got it",
  "明白了",
  "not sure yet",
  "I think I understood the rebase step",
  lowercaseSentence,
  "yes, i merged the branch, but the conflict in readme.md confused me.",
  "Yes, I merged the branch, but the conflict in README.md confused me.",
  "I THINK I GOT IT NOW",
  "Ich habe den Branch gemergt, aber der Konflikt war verwirrend!",
  "Line one of my notes.\nLine two: what I still do not get.",
  "first line of my notes\nsecond line",
  "Я думаю, что понял этот шаг",
  "Νομίζω ότι κατάλαβα το βήμα",
  "मुझे लगता है कि मैं समझ गया",
  "我觉得我明白了这一步",
  "Ich verstehe 変更 noch nicht ganz 🙂",
  "التغيير واضح الآن, thanks for the help",
  "שלום, I got it right this time",
  `https://notes.example/${lowercaseSentence.replaceAll(" ", "%20")}`,
  `/notes/${lowercaseSentence}`,
  Array(40).fill(lowercaseSentence).join(" "),
  Array(20).fill("Yes, I merged the branch, but the conflict confused me.").join("\n"),
];

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
   * Every value position of `schema` (a self-contained input schema: local `$ref`s only) that
   * accepts ordinary prose. A string, an untyped field, `{}`, `not: {type: number}`, a format that
   * accepts prose (`regex`, `uri` without a bounding pattern, an unknown format) and an array
   * without `items` all count. `enum` and `const` fields are finite by declaration and exempt.
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
    if (node === true) return proseSamples[0];
    if (!isObject(node) || "enum" in node || "const" in node) return undefined;
    // `type` alone rules out every sample (prose, or an array holding it): nothing to compile. Its
    // own fields are positions of their own.
    const types = [node.type].flat();
    if (node.type !== undefined && !types.includes("string") && !types.includes("array"))
      return undefined;
    const validate = this.compile(node, key, pointer);
    if (!validate) return acceptedByShape(node);
    const string = proseSamples.find((s) => validate(s) === true);
    if (string !== undefined) return string;
    if ("items" in node || "prefixItems" in node) return undefined; // judged as positions
    return proseSamples.map((s) => [s]).find((a) => validate(a) === true);
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

/**
 * The fallback when Ajv cannot compile a field (a pattern Ajv rejects, a draft-07 tuple): a
 * string-typed field without enum, const or format is free text unless its pattern, compiled as
 * Ajv compiles it (Unicode mode, unanchored search), rejects every sample.
 */
function acceptedByShape(node: unknown): unknown {
  if (node === true) return proseSamples[0];
  if (!isObject(node) || "enum" in node || "const" in node || "format" in node) return undefined;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (!types.includes("string")) return undefined;
  if (!("pattern" in node)) return proseSamples[0];
  try {
    const regex = new RegExp(String(node.pattern), "u");
    return proseSamples.find((s) => regex.test(s));
  } catch {
    return undefined;
  }
}

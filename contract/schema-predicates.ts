/**
 * Gate predicates on single JSON Schema nodes, shared by the generator's authoring rules (located
 * in the schema sources) and the contract lint (located in a snapshot or any tools/list).
 */

type SchemaNode = Record<string, unknown>;

/**
 * Ordinary chat prose: plain and punctuated sentences in English and German, multi-line text and
 * mixed scripts (CJK, emoji, right-to-left). A string input whose pattern accepts any of them lets
 * chat free text reach the backend (C5, G11), whatever the pattern looks like.
 */
export const proseSamples: readonly string[] = [
  "I think I understood the rebase step",
  "Yes, I merged the branch, but the conflict in README.md confused me.",
  "Ich habe den Branch gemergt, aber der Konflikt war verwirrend!",
  "Line one of my notes.\nLine two: what I still do not get.",
  "Ich verstehe 変更 noch nicht ganz 🙂",
  "التغيير واضح الآن, thanks for the help",
  "שלום, I got it right this time",
];

/**
 * Whether a `pattern` accepts ordinary prose: it is compiled as Ajv compiles it (Unicode mode, an
 * unanchored search) and tried on every prose sample. A pattern that does not compile accepts
 * nothing here (the generator's pattern rule reports it).
 */
export function patternAcceptsProse(pattern: string): boolean {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "u");
  } catch {
    return false;
  }
  return proseSamples.some((sample) => regex.test(sample));
}

/** How a string node lets free text through, if it does (C5, G11). */
export type FreeText = "unconstrained" | "prose";

/**
 * A string-typed node that lets chat free text through (C5, G11), decided by behaviour: it has no
 * enum, const or format and either no pattern (`unconstrained`) or a pattern that accepts ordinary
 * prose (`prose`). Undefined when the node is not free text.
 */
export function freeTextKind(node: SchemaNode): FreeText | undefined {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (!types.includes("string") || "enum" in node || "const" in node || "format" in node)
    return undefined;
  if (!("pattern" in node)) return "unconstrained";
  return typeof node.pattern === "string" && patternAcceptsProse(node.pattern)
    ? "prose"
    : undefined;
}

/** An object node that accepts properties it does not name (C5, L8). */
export function isOpenObject(node: SchemaNode): boolean {
  const isObjectSchema =
    node.type === "object" || (typeof node.properties === "object" && node.properties !== null);
  return isObjectSchema && node.additionalProperties !== false;
}

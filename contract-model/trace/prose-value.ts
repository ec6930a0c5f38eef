/**
 * Whether a value a host sent or a server returned reads as learner prose: the same judgement as
 * the free-text gate, on a value instead of a schema's language. A string is prose when it holds
 * words separated by white space, a run of letters beyond ASCII (scripts written without spaces)
 * or prose carried in a URL path (`%20`); an array is prose when it holds more than
 * {@link WORD_LIST_BOUND} plain words (a sentence split into items). Identifiers, opaque
 * capabilities, uuids, dates and numbers are none of that.
 */
/** An array of plain words longer than this reads as a sentence split into items. */
export const WORD_LIST_BOUND = 3;

const spaced = /\S\s+\S/u;
const script = /[^\0-\x7F]{2}/u;
const urlProse = /[A-Za-z]%20[A-Za-z]/;
const plainWord = /^\p{L}{2,}[.,!?']?$/u;

/** A prose redaction marker (trace-redaction.ts): what stood there was prose. */
export const PROSE_MARKER = /^redacted:prose:\d+-words?$/;

/** Whether one string reads as prose (or is the marker that replaced prose). */
export function isProseString(value: string): boolean {
  return (
    spaced.test(value) || script.test(value) || urlProse.test(value) || PROSE_MARKER.test(value)
  );
}

/** Whether an array is a list of plain words longer than the bound. */
export function isWordList(value: readonly unknown[]): boolean {
  if (value.length <= WORD_LIST_BOUND) return false;
  return value.every((v) => typeof v === "string" && plainWord.test(v));
}

/** Where prose sits in a value, as dotted paths (`note`, `assessments[0].feedback`, `tags`). */
export function prosePaths(value: unknown, path = ""): string[] {
  if (typeof value === "string") return isProseString(value) ? [path || "(root)"] : [];
  if (Array.isArray(value)) {
    if (isWordList(value)) return [path || "(root)"];
    return value.flatMap((v, i) => prosePaths(v, `${path}[${i}]`));
  }
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([k, v]) => prosePaths(v, path ? `${path}.${k}` : k));
  return [];
}

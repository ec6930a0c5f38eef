/**
 * Minimal JSON text scanning without parsing: skip strings and containers by character codes. Used
 * to find where things sit in large documents (a 7 MB tools/list) far faster than a parser can.
 */
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;
const COLON = 58;

/** True for a character code that opens an object or array. */
export const opensContainer = (c: number): boolean => c === OPEN_OBJECT || c === OPEN_ARRAY;
/** True for a character code that closes an object or array. */
export const closesContainer = (c: number): boolean => c === CLOSE_OBJECT || c === CLOSE_ARRAY;
/** True for whitespace, `,` and `:` — what lies between JSON tokens. */
export const isSeparator = (c: number): boolean => c <= 32 || c === COMMA || c === COLON;
export { COMMA, OPEN_ARRAY, QUOTE };

/** Index just past the string that starts at `i` (a quote). */
export function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    let back = 0;
    while (text.charCodeAt(q - 1 - back) === BACKSLASH) back++;
    if (back % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just past the object or array that starts at `i`. */
export function skipContainer(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) j = skipString(text, j) - 1;
    else if (opensContainer(c)) depth++;
    else if (closesContainer(c)) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return text.length;
}

/** Index just past the value (string, container or literal) that starts at `i`. */
export function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (opensContainer(c)) return skipContainer(text, i);
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === COMMA || closesContainer(d) || d <= 32) break;
    j++;
  }
  return j;
}

/** Index of the first non-whitespace character at or after `i`. */
function skipBlank(text: string, i: number): number {
  let j = i;
  while (j < text.length && text.charCodeAt(j) <= 32) j++;
  return j;
}

/**
 * The text of each element of the array at `path` (object keys from the root), or undefined when
 * the document has no array there. Elements are returned as written, whitespace included.
 */
export function arrayElementTexts(text: string, path: readonly string[]): string[] | undefined {
  let i = skipBlank(text, 0);
  for (const key of path) {
    if (text.charCodeAt(i) !== OPEN_OBJECT) return undefined;
    let j = i + 1;
    let found = -1;
    while (j < text.length && found < 0) {
      j = skipBlank(text, j);
      const c = text.charCodeAt(j);
      if (c === CLOSE_OBJECT) return undefined;
      if (c === COMMA) {
        j++;
        continue;
      }
      const end = skipString(text, j);
      const name = JSON.parse(text.slice(j, end)) as string;
      j = skipBlank(text, end);
      if (text.charCodeAt(j) === COLON) j = skipBlank(text, j + 1);
      if (name === key) found = j;
      else j = skipValue(text, j);
    }
    if (found < 0) return undefined;
    i = found;
  }
  if (text.charCodeAt(i) !== OPEN_ARRAY) return undefined;
  const out: string[] = [];
  let j = i + 1;
  for (;;) {
    j = skipBlank(text, j);
    const c = text.charCodeAt(j);
    if (c === CLOSE_ARRAY || j >= text.length) return out;
    if (c === COMMA) {
      j++;
      continue;
    }
    const end = skipValue(text, j);
    out.push(text.slice(j, end));
    j = end;
  }
}

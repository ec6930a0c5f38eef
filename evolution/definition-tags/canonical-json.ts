/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): the one byte form of a JSON value that tool digests
 * and definition tags hash. Objects' members are sorted by their names' UTF-16 code units, numbers
 * are written as ECMAScript's Number.prototype.toString writes them, strings as ECMAScript's
 * JSON.stringify escapes them, and there is no whitespace. Input outside I-JSON (RFC 7493) is
 * refused rather than guessed at: NaN, Infinity, a lone surrogate, a value JSON has no form for.
 */

/** Why a value has no canonical form, and where in it (a JSON Pointer). */
export class CanonicalJsonError extends Error {
  override name = "CanonicalJsonError";
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(pointer ? `${pointer}: ${message}` : message);
  }
}

/** Bounds a canonicalisation keeps, so hostile input ends in an error, never a crashed stack. */
export interface CanonicalLimits {
  /** Deepest nesting of arrays and objects accepted (default 256). */
  maxDepth?: number;
  /** Longest canonical text accepted, in UTF-16 code units (default: no limit). */
  maxLength?: number;
}

const defaultMaxDepth = 256;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The RFC 8785 canonical JSON text of a value (encode it as UTF-8 before hashing). Accepts what
 * JSON.parse returns: plain objects, arrays, strings, finite numbers, booleans and null. An object
 * member whose value is `undefined` is left out, as JSON.stringify leaves it out on the wire; any
 * other value without a JSON form (a function, a bigint, a Date, a cycle) throws
 * {@link CanonicalJsonError}.
 */
export function canonicalize(value: unknown, limits: CanonicalLimits = {}): string {
  const maxDepth = limits.maxDepth ?? defaultMaxDepth;
  const maxLength = limits.maxLength ?? Number.POSITIVE_INFINITY;
  const parts: string[] = [];
  let length = 0;
  const open = new Set<object>();
  const emit = (text: string, pointer: string) => {
    length += text.length;
    if (length > maxLength)
      throw new CanonicalJsonError(`canonical JSON longer than ${maxLength} characters`, pointer);
    parts.push(text);
  };
  const walk = (v: unknown, pointer: string, depth: number): void => {
    const text = scalar(v, pointer);
    if (text !== undefined) {
      emit(text, pointer);
      return;
    }
    const node = v as object;
    if (depth >= maxDepth)
      throw new CanonicalJsonError(`nested deeper than ${maxDepth} levels`, pointer);
    if (open.has(node)) throw new CanonicalJsonError("the value contains a cycle", pointer);
    open.add(node);
    if (Array.isArray(node)) {
      emit("[", pointer);
      for (let i = 0; i < node.length; i++) {
        if (i > 0) emit(",", pointer);
        const item: unknown = node[i];
        if (item === undefined)
          throw new CanonicalJsonError("an array item is undefined", `${pointer}/${i}`);
        walk(item, `${pointer}/${i}`, depth + 1);
      }
      emit("]", pointer);
    } else {
      const proto = Object.getPrototypeOf(node) as unknown;
      if (proto !== Object.prototype && proto !== null)
        throw new CanonicalJsonError("only plain objects have a JSON form", pointer);
      const record = node as Record<string, unknown>;
      // Default sort compares UTF-16 code units, which is the order RFC 8785 §3.2.3 prescribes.
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      emit("{", pointer);
      keys.forEach((key, i) => {
        const at = `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        if (i > 0) emit(",", pointer);
        emit(quote(key, at), at);
        emit(":", at);
        walk(record[key], at, depth + 1);
      });
      emit("}", pointer);
    }
    open.delete(node);
  };
  walk(value, "", 0);
  return parts.join("");
}

/** The canonical text of a JSON scalar, undefined for an object or array; throws for the rest. */
function scalar(v: unknown, pointer: string): string | undefined {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
      if (!Number.isFinite(v))
        throw new CanonicalJsonError(`${v} is not a JSON number (RFC 8785 §3.2.2.3)`, pointer);
      // ECMAScript Number::toString: shortest round-trip digits, -0 as "0" (RFC 8785 §3.2.2.3).
      return JSON.stringify(v);
    case "string":
      return quote(v, pointer);
    case "object":
      return undefined;
    default:
      throw new CanonicalJsonError(`a ${typeof v} has no JSON form`, pointer);
  }
}

/**
 * A JSON string as RFC 8785 §3.2.2.2 writes it: ECMAScript's JSON.stringify escaping (`\"`, `\\`,
 * `\b \f \n \r \t`, other controls as lowercase `\u00xx`, everything else literal). A lone
 * surrogate is not I-JSON and is refused.
 */
function quote(text: string, pointer: string): string {
  if (loneSurrogate.test(text))
    throw new CanonicalJsonError("a string holds a lone surrogate (not I-JSON)", pointer);
  return JSON.stringify(text);
}

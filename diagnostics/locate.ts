import { findNodeAtLocation, parseTree, type Node } from "jsonc-parser";
import type { Diagnostic } from "./diagnostic.js";

/**
 * Decode a JSON pointer into path segments (RFC 6901). Only the URI-fragment form (`#/…`) is
 * percent-encoded (§6); a plain pointer is taken literally, so a property named `100%` works.
 */
export function pointerSegments(pointer: string): string[] {
  const fragment = pointer.startsWith("#");
  const plain = fragment ? safeDecode(pointer.slice(1)) : pointer;
  if (plain === "") return [];
  return plain
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** 1-based line and column of the deepest existing node on `pointer` in JSON `text`. */
export function locatePointer(
  text: string,
  pointer: string,
): { line: number; column: number } | undefined {
  const at = nodeOffset(parseTreeSafely(text), pointer);
  return at === undefined ? undefined : offsetToLineColumn(text, at);
}

/** jsonc-parser's tree, or undefined when the text nests deeper than its recursion can go. */
function parseTreeSafely(text: string): Node | undefined {
  try {
    return parseTree(text);
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/** The offset of the deepest existing node on `pointer` (its property name for a value). */
function nodeOffset(tree: Node | undefined, pointer: string): number | undefined {
  let node = tree;
  if (!node) return undefined;
  for (const segment of pointerSegments(pointer)) {
    const child: Node | undefined = findNodeAtLocation(node, [
      node.type === "array" ? Number(segment) : segment,
    ]);
    if (!child) break;
    node = child;
  }
  // Point at the property name when the node is a property value.
  return node.parent?.type === "property" ? node.parent.offset : node.offset;
}

/** 1-based line/column of a character offset. */
export function offsetToLineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastBreak = i;
    }
  }
  return { line, column: offset - lastBreak };
}

/**
 * Fill in line/column for diagnostics whose file text is known. Each text is parsed once and its
 * line starts indexed once, so thousands of findings in one large document stay cheap. A text
 * longer than `maxTextLength` is not parsed (a syntax tree costs many times its text): its
 * findings keep their pointers.
 */
export function withLines(
  diagnostics: Diagnostic[],
  textOf: (file: string) => string | undefined,
  maxTextLength = Number.POSITIVE_INFINITY,
): Diagnostic[] {
  const prepared = new Map<string, { tree?: Node; starts: number[] } | undefined>();
  const prepare = (file: string) => {
    if (prepared.has(file)) return prepared.get(file);
    const found = textOf(file);
    const text = found !== undefined && found.length <= maxTextLength ? found : undefined;
    const value =
      text === undefined ? undefined : { tree: parseTreeSafely(text), starts: lineStarts(text) };
    prepared.set(file, value);
    return value;
  };
  return diagnostics.map((d) => {
    if (d.location.line !== undefined || d.location.pointer === undefined) return d;
    const file = prepare(d.location.file);
    const offset = file && nodeOffset(file.tree, d.location.pointer);
    if (file === undefined || offset === undefined) return d;
    return { ...d, location: { ...d.location, ...lineColumnAt(file.starts, offset) } };
  });
}

/** The offset at which each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line/column of an offset, by binary search over the line starts. */
function lineColumnAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}

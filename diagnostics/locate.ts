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
  let node: Node | undefined = parseTree(text);
  if (!node) return undefined;
  for (const segment of pointerSegments(pointer)) {
    const child: Node | undefined = findNodeAtLocation(node, [
      node.type === "array" ? Number(segment) : segment,
    ]);
    if (!child) break;
    node = child;
  }
  // Point at the property name when the node is a property value.
  const offset = node.parent?.type === "property" ? node.parent.offset : node.offset;
  return offsetToLineColumn(text, offset);
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

/** Fill in line/column for diagnostics whose file text is known. */
export function withLines(
  diagnostics: Diagnostic[],
  textOf: (file: string) => string | undefined,
): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.location.line !== undefined || d.location.pointer === undefined) return d;
    const text = textOf(d.location.file);
    const at = text === undefined ? undefined : locatePointer(text, d.location.pointer);
    return at ? { ...d, location: { ...d.location, ...at } } : d;
  });
}

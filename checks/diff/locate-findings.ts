import type { Location } from "../../diagnostics/diagnostic.js";
import { escapePointerSegment } from "../../diagnostics/diagnostic.js";
import { pointerSegments } from "../../diagnostics/locate.js";
import {
  closesContainer,
  COMMA,
  isSeparator,
  OPEN_ARRAY,
  opensContainer,
  skipContainer,
  skipString,
  skipValue,
} from "./json-scan.js";

type Position = { line: number; column: number };

/** A node of the wanted-pointer trie: its pointer and the segments below it that are wanted. */
interface Wanted {
  pointer: string;
  children: Map<string, Wanted>;
}

function trieOf(pointers: readonly string[]): Wanted {
  const root: Wanted = { pointer: "", children: new Map() };
  for (const p of pointers) {
    let node = root;
    for (const seg of pointerSegments(p)) {
      let next = node.children.get(seg);
      if (!next) {
        next = { pointer: `${node.pointer}/${escapePointerSegment(seg)}`, children: new Map() };
        node.children.set(seg, next);
      }
      node = next;
    }
  }
  return root;
}

/**
 * Positions (1-based line/column) of the given JSON pointers and all their prefixes in `text`, in
 * one pass that descends only into containers on a wanted path and skips every other one with a
 * bracket count — a 7 MB tools/list is mostly skipped. A property is located at its name, an array
 * element where it begins (like the shared `locatePointer`).
 */
function positions(text: string, pointers: readonly string[]): Map<string, Position> {
  const found = new Map<string, Position>();
  let lineAt = 0;
  let line = 1;
  let lineStart = 0;
  const record = (pointer: string, offset: number) => {
    if (found.has(pointer)) return;
    for (let n = text.indexOf("\n", lineAt); n >= 0 && n < offset; n = text.indexOf("\n", n + 1)) {
      line++;
      lineStart = n + 1;
    }
    lineAt = Math.max(lineAt, offset);
    found.set(pointer, { line, column: offset - lineStart + 1 });
  };
  // Descend into the container at `i` whose wanted node is `node`; returns the index past it.
  const descend = (i: number, node: Wanted): number => {
    const array = text.charCodeAt(i) === OPEN_ARRAY;
    let index = 0;
    let key: string | undefined;
    let keyAt = 0;
    let j = i + 1;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (closesContainer(c)) return j + 1;
      if (isSeparator(c)) {
        if (c === COMMA && array) index++;
        j++;
        continue;
      }
      if (!array && key === undefined) {
        // A property name.
        const end = skipString(text, j);
        key = JSON.parse(text.slice(j, end)) as string;
        keyAt = j;
        j = end;
        continue;
      }
      const seg = array ? String(index) : (key as string);
      const child = node.children.get(seg);
      if (child) record(child.pointer, array ? j : keyAt);
      j =
        opensContainer(c) && child && child.children.size > 0
          ? descend(j, child)
          : opensContainer(c)
            ? skipContainer(text, j)
            : skipValue(text, j);
      key = undefined;
    }
    return j;
  };
  const root = trieOf(pointers);
  let start = 0;
  while (start < text.length && text.charCodeAt(start) <= 32) start++;
  if (opensContainer(text.charCodeAt(start)) && root.children.size > 0) descend(start, root);
  return found;
}

/**
 * A locator of file:line:col for many locations on large documents: one streaming pass per file
 * over the pointers of `locations` (the shared `withLines` parses a whole tree per diagnostic,
 * which a 7 MB tools/list with dozens of findings cannot afford). The locator gives each location
 * the position of the deepest existing node on its pointer; a location that has a line already, or
 * no pointer, or lies in a file that cannot be read, comes back unchanged.
 */
export function lineLocator(
  locations: Iterable<Location>,
  textOf: (file: string) => string | undefined,
): (location: Location) => Location {
  const byFile = new Map<string, string[]>();
  for (const l of locations)
    if (l.line === undefined && l.pointer !== undefined)
      byFile.set(l.file, [...(byFile.get(l.file) ?? []), l.pointer]);
  const located = new Map<string, Map<string, Position>>();
  for (const [file, pointers] of byFile) {
    const text = textOf(file);
    if (text !== undefined) located.set(file, positions(text, pointers));
  }
  return (location) => {
    const found = located.get(location.file);
    if (!found || location.line !== undefined || location.pointer === undefined) return location;
    const segs = pointerSegments(location.pointer);
    for (let n = segs.length; n >= 0; n--) {
      const at =
        n === 0
          ? { line: 1, column: 1 }
          : found.get(
              segs
                .slice(0, n)
                .map((x) => `/${escapePointerSegment(x)}`)
                .join(""),
            );
      if (at) return { ...location, ...at };
    }
    return location;
  };
}

import { type JSONPath, type JSONVisitor, visit } from "jsonc-parser";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { escapePointerSegment } from "../../diagnostics/diagnostic.js";
import { pointerSegments } from "../../diagnostics/locate.js";

type Position = { line: number; column: number };

const pointerOf = (path: JSONPath) => path.map((s) => `/${escapePointerSegment(s)}`).join("");

/**
 * Positions (1-based line/column) of the given JSON pointers and all their prefixes in `text`,
 * found in one streaming pass without building a syntax tree — a 7 MB tools/list would need
 * hundreds of MB for one.
 */
function positions(text: string, pointers: readonly string[]): Map<string, Position> {
  const wanted = new Set<string>();
  const names = new Set<string>();
  for (const p of pointers) {
    const segs = pointerSegments(p);
    segs.forEach((s, i) => {
      names.add(s);
      wanted.add(
        segs
          .slice(0, i + 1)
          .map((x) => `/${escapePointerSegment(x)}`)
          .join(""),
      );
    });
  }
  const found = new Map<string, Position>();
  const record = (pointer: string, line: number, character: number) => {
    if (wanted.has(pointer) && !found.has(pointer))
      found.set(pointer, { line: line + 1, column: character + 1 });
  };
  // Whether each open container is an array: a value that begins while an array is on top is an
  // array element, the only case that needs its path (asking for a path copies it).
  const inArray: boolean[] = [];
  const begin = (array: boolean) =>
    ((_offset, _length, line, character, pathSupplier) => {
      if (inArray[inArray.length - 1]) record(pointerOf(pathSupplier()), line, character);
      inArray.push(array);
    }) satisfies JSONVisitor["onObjectBegin"];
  const end = () => void inArray.pop();
  visit(text, {
    // A property is located at its name, like the shared `locatePointer`.
    onObjectProperty: (property, _offset, _length, line, character, pathSupplier) => {
      if (names.has(property)) record(pointerOf([...pathSupplier(), property]), line, character);
    },
    // Array elements have no name: locate them where they begin.
    onObjectBegin: begin(false),
    onArrayBegin: begin(true),
    onObjectEnd: end,
    onArrayEnd: end,
  });
  return found;
}

/**
 * Fill in file:line:col for many diagnostics on large documents: one streaming pass per file (the
 * shared `withLines` parses a whole tree per diagnostic, which a 7 MB tools/list with dozens of
 * findings cannot afford). Same answer: the deepest existing node on each pointer.
 */
export function locateFindings(
  diagnostics: Diagnostic[],
  textOf: (file: string) => string | undefined,
): Diagnostic[] {
  const byFile = new Map<string, string[]>();
  for (const d of diagnostics)
    if (d.location.line === undefined && d.location.pointer !== undefined)
      byFile.set(d.location.file, [...(byFile.get(d.location.file) ?? []), d.location.pointer]);
  const located = new Map<string, Map<string, Position>>();
  for (const [file, pointers] of byFile) {
    const text = textOf(file);
    if (text !== undefined) located.set(file, positions(text, pointers));
  }
  return diagnostics.map((d) => {
    const found = located.get(d.location.file);
    if (!found || d.location.line !== undefined || d.location.pointer === undefined) return d;
    const segs = pointerSegments(d.location.pointer);
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
      if (at) return { ...d, location: { ...d.location, ...at } };
    }
    return d;
  });
}

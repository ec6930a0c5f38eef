import type { Diagnostic, Location } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import type { ContractDoc } from "../../contract-model/contract-doc.js";
import { walkSchema } from "../../json-schema/walk.js";

const DIFF_FORMAT_UNKNOWN = defineRule({
  id: "DIFF_FORMAT_UNKNOWN",
  family: "diff",
  severity: "note",
  summary:
    "A string format the diff does not know (such as schemars' `uint`): its values are compared " +
    "as plain strings; adding, removing or changing the format is still reported.",
  message:
    "format {format:json} is not one the diff knows; values in it are checked as plain strings",
});

/**
 * One note per string format that the compared documents use and the value checker does not know,
 * at its first occurrence: foreign servers use vendor formats, which are read quietly instead of
 * warning on stderr. Documents read from text are scanned as text (fast on a 7 MB tools/list);
 * others (a live server's listing) are walked.
 */
export function unknownFormatNotes(
  docs: readonly ContractDoc[],
  known: (format: string) => boolean,
): Diagnostic[] {
  const first = new Map<string, Location>();
  const note = (format: string, at: () => Location) => {
    if (!known(format) && !first.has(format)) first.set(format, at());
  };
  for (const doc of docs) {
    const text = doc.text;
    if (text !== undefined) {
      for (const m of text.matchAll(/"format"\s*:\s*"((?:[^"\\]|\\.)*)"/g))
        note(jsonStringContents(m[1]), () => lineColumn(doc.file, text, m.index ?? 0));
      continue;
    }
    for (const tool of doc.tools.values())
      for (const [field, schema] of [
        ["inputSchema", tool.rawInput],
        ["outputSchema", tool.rawOutput],
      ] as const)
        walkSchema(schema, `${tool.pointer}/${field}`, (node, pointer) => {
          if (typeof node.format === "string")
            note(node.format, () => ({ file: doc.file, pointer: `${pointer}/format` }));
        });
  }
  return [...first].map(([format, at]) => diagnose(DIFF_FORMAT_UNKNOWN, { format }, at));
}

/** A JSON string's contents without its escapes (as written, when they are not valid JSON). */
function jsonStringContents(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** 1-based line and column of a text offset. */
function lineColumn(file: string, text: string, offset: number): Location {
  let line = 1;
  let start = 0;
  for (let n = text.indexOf("\n"); n >= 0 && n < offset; n = text.indexOf("\n", n + 1)) {
    line++;
    start = n + 1;
  }
  return { file, line, column: offset - start + 1 };
}

import type { Diagnostic } from "../../diagnostics/diagnostic.js";
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
 * warning on stderr.
 */
export function unknownFormatNotes(
  docs: readonly ContractDoc[],
  known: (format: string) => boolean,
): Diagnostic[] {
  const first = new Map<string, { file: string; pointer: string }>();
  for (const doc of docs)
    for (const tool of doc.tools.values())
      for (const [field, schema] of [
        ["inputSchema", tool.rawInput],
        ["outputSchema", tool.rawOutput],
      ] as const)
        walkSchema(schema, `${tool.pointer}/${field}`, (node, pointer) => {
          const format = node.format;
          if (typeof format !== "string" || known(format) || first.has(format)) return;
          first.set(format, { file: doc.file, pointer: `${pointer}/format` });
        });
  return [...first].map(([format, at]) => diagnose(DIFF_FORMAT_UNKNOWN, { format }, at));
}

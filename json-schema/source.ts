import { parse as parseJsonc, type ParseError } from "jsonc-parser";
import { createHash } from "node:crypto";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import { offsetToLineColumn } from "../diagnostics/locate.js";

/** One input file of the generator: repository-relative posix path, its text and parsed JSON. */
export interface SourceFile {
  file: string;
  text: string;
  json: unknown;
  sha256: string;
}

const SCHEMA_PARSE_ERROR = defineRule({
  id: "SCHEMA_PARSE_ERROR",
  family: "generator",
  severity: "error",
  summary: "A schema or contract file is not valid JSON.",
  message: "{file} is not valid JSON",
});

/**
 * Parse raw files into sources; unparsable files become diagnostics. Order of the input does not
 * matter.
 */
export function parseSources(files: readonly { file: string; text: string }[]): {
  sources: SourceFile[];
  diagnostics: Diagnostic[];
} {
  const sources: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const sorted = [...files].sort((a, b) =>
    Buffer.compare(Buffer.from(a.file), Buffer.from(b.file)),
  );
  for (const { file, text } of sorted) {
    const sha256 = createHash("sha256").update(text).digest("hex");
    try {
      sources.push({ file, text, json: JSON.parse(text), sha256 });
    } catch {
      const errors: ParseError[] = [];
      parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true });
      const at = offsetToLineColumn(text, errors[0]?.offset ?? 0);
      diagnostics.push(diagnose(SCHEMA_PARSE_ERROR, { file }, { file, ...at }));
    }
  }
  return { sources, diagnostics };
}

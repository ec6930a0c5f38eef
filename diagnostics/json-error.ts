import { type ParseError, parseTree } from "jsonc-parser";
import { offsetToLineColumn } from "./locate.js";

/** Why a text is not JSON, and where (1-based line/column of the first problem). */
export interface JsonError {
  /** The parser's reason with its position, e.g. `Expected ',' or '}' at line 3 column 5`. */
  message: string;
  line: number;
  column: number;
}

/**
 * Explain why `text` is not JSON: the reason `JSON.parse` gives (without the stretch of the text
 * it may quote, which could hold a secret) and the line/column where it stopped. Undefined when
 * `text` parses.
 */
export function jsonError(text: string): JsonError | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const position = /\bat position (\d+)/.exec(raw);
    const offset = position ? Number(position[1]) : firstErrorOffset(text);
    const reason =
      raw
        .replace(/, .*is not valid JSON$/s, "")
        .replace(/ in JSON at position \d+.*$/, "")
        .replace(/^Unexpected end of JSON input$/, "Unexpected end of input")
        .trim() || "not valid JSON";
    const { line, column } = offsetToLineColumn(text, Math.min(offset, text.length));
    return { message: `${reason} at line ${line} column ${column}`, line, column };
  }
}

/** Offset of the first syntax error a tolerant-free JSON parse finds (end of text when none). */
function firstErrorOffset(text: string): number {
  const errors: ParseError[] = [];
  parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  return errors[0]?.offset ?? text.length;
}

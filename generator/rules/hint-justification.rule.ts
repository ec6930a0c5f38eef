import { defineRule } from "../../diagnostics/rule.js";
import { isObject } from "../../json-schema/walk.js";
import { generatorRule } from "./rule.js";

const justified = ["readOnlyHint", "destructiveHint", "openWorldHint"] as const;

/**
 * A second sentence: a full stop, question or exclamation mark, a space and a capital letter,
 * unless the stop ends a common abbreviation ("e.g. Claude", "vs. ChatGPT").
 */
function severalSentences(text: string): boolean {
  for (const m of text.matchAll(/(\S+)[.!?]\s+\p{Lu}/gu))
    if (!/^(e\.g|i\.e|etc|vs|cf|approx|[A-Za-z])$/i.test(m[1])) return true;
  return false;
}

/**
 * Each hint justification is one sentence about what the tool does: reviewers reject texts that
 * only restate the hint ("readOnlyHint is true because the tool is read-only").
 */
export const hintJustification = generatorRule(
  defineRule({
    id: "HINT_JUSTIFICATION_WEAK",
    family: "generator",
    severity: "error",
    summary:
      "A hint justification is one sentence about the tool's behaviour, not a restatement of " +
      "the hint (directory review).",
    message: {
      restates:
        "{tool}: the {hint} justification names the hint itself; say what the tool reads, " +
        "writes or contacts instead",
      sentences: "{tool}: the {hint} justification is more than one sentence; keep it to one",
    },
  }),
  (ctx, report) => {
    for (const tool of ctx.tools) {
      const texts = tool.doc.hintJustifications;
      if (!isObject(texts)) continue;
      for (const hint of justified) {
        const text = texts[hint];
        if (typeof text !== "string") continue;
        const at = { file: tool.file, pointer: `/hintJustifications/${hint}` };
        const name = String(tool.doc.name);
        if (/(readOnly|destructive|openWorld|idempotent)Hint/i.test(text))
          report({ variant: "restates", tool: name, hint }, at);
        else if (severalSentences(text.trim()))
          report({ variant: "sentences", tool: name, hint }, at);
      }
    }
  },
);

import type { ContractDoc, DiffTool } from "../../contract-model/contract-doc.js";
import { FreeTextJudge } from "../../contract-model/text/free-text.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { isObject, propertiesOf, requiredOf } from "../../json-schema/schema-facts.js";

const SKILL_PROMPT_ONLY_RULE = defineRule({
  id: "SKILL_PROMPT_ONLY_RULE",
  family: "skill-lint",
  severity: "error",
  summary:
    "A safety rule a SKILL.md states is enforced by the contract too: the input it constrains " +
    "has a schema guard, the call it limits an idempotency guard; no prompt-only safety rules " +
    "(C16, C4, G5).",
  message: {
    field:
      "the rule on {field} exists only in the skill: the input {field} of {tools} takes any " +
      "text, so nothing but the prompt enforces it",
    tool:
      "the rule that {tool} runs once exists only in the skill: the tool is not idempotent " +
      "and takes no request id or capability that would let the backend enforce it",
  },
});

/** Words that make a sentence a rule (English and German). */
const normative =
  /\b(never|must|do not|don't|only|exactly|at most|always|no more than|nie|niemals|nur|genau|höchstens|immer|keine?)\b/i;
/** Words that limit how often a call runs. */
const repetition =
  /\b(once|at most one|exactly one|do not retry|never retry|not retry|twice|einmal|nicht wiederholen)\b/i;

/** Whether the backend can enforce a limit on how often `tool` runs. */
function idempotencyGuarded(tool: DiffTool): boolean {
  if (tool.annotations?.idempotentHint === true) return true;
  if (!isObject(tool.rawInput)) return false;
  const props = propertiesOf(tool.rawInput);
  return [...requiredOf(tool.rawInput)].some((name) => {
    const p = props[name];
    return (
      /Capability$/.test(name) || (isObject(p) && (p.format === "uuid" || p.type === "integer"))
    );
  });
}

/**
 * Safety rules a skill states in prose that no schema or backend guard enforces (C16,
 * "prompt-only safety rules"): a rule-like line (never, only, exactly, at most …, also in German)
 * that names an input field which some tool accepts as free text, or limits how often a tool runs
 * that has no idempotency guard. The skill lint sees the rules the contract cannot.
 */
export function promptOnlyRules(text: string, file: string, contract: ContractDoc): Diagnostic[] {
  const out: Diagnostic[] = [];
  const judge = new FreeTextJudge();
  const fieldTools = new Map<string, { tool: string; free: boolean }[]>();
  for (const tool of contract.tools.values()) {
    if (!isObject(tool.rawInput)) continue;
    for (const [name, schema] of Object.entries(propertiesOf(tool.rawInput))) {
      const free = schema === true || judge.fields(schema).length > 0;
      fieldTools.set(name, [...(fieldTools.get(name) ?? []), { tool: tool.name, free }]);
    }
  }
  const lines = text.split("\n");
  let fenced = false;
  let body = lines[0]?.trim() !== "---";
  lines.forEach((line, i) => {
    if (!body) {
      body = i > 0 && line.trim() === "---";
      return;
    }
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !normative.test(line)) return;
    const where = { file, line: i + 1, column: 1 };
    for (const m of line.matchAll(/`([^`\n]+)`/g)) {
      const name = m[1].trim();
      const free = (fieldTools.get(name) ?? []).filter((t) => t.free).map((t) => t.tool);
      if (free.length)
        out.push(
          diagnose(
            SKILL_PROMPT_ONLY_RULE,
            { variant: "field", field: name, tools: free.join(", ") },
            where,
          ),
        );
      const tool = contract.tools.get(name);
      if (tool && repetition.test(line) && !idempotencyGuarded(tool))
        out.push(diagnose(SKILL_PROMPT_ONLY_RULE, { variant: "tool", tool: name }, where));
    }
  });
  return out;
}

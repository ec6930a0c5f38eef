import { LineCounter, parseDocument, isScalar, isSeq, type Node } from "yaml";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";

const SKILL_FRONT_MATTER_INVALID = defineRule({
  id: "SKILL_FRONT_MATTER_INVALID",
  family: "skill-lint",
  severity: "error",
  summary:
    "A SKILL.md starts with YAML front matter that names the skill and describes " +
    "when to use it (L7).",
  message: {
    notClosed: "{file}: front matter is not closed with ---",
    missing: "{file}: no YAML front matter (name, description)",
    yaml: "{file}: front matter is not valid YAML: {error}",
    field: "{file}: front matter lacks a non-empty {key}",
  },
});

/** One tool name a skill refers to, with where it is written (1-based). */
export interface ToolRef {
  name: string;
  line: number;
  column: number;
  from: "front-matter" | "text";
}

// Tool names are snake_case with at least one underscore; camelCase fields and UPPER error codes
// are not tools.
const toolName = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/**
 * Tool references of one SKILL.md: the front matter's `tools` / `allowed-tools` list and every
 * inline backticked snake_case name in the body (fenced code blocks are examples, not references).
 */
export function skillToolRefs(
  text: string,
  file: string,
): { refs: ToolRef[]; diagnostics: Diagnostic[] } {
  const refs: ToolRef[] = [];
  const diagnostics: Diagnostic[] = [];
  const lines = text.split("\n");
  let bodyStart = 0;
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
    if (end < 0)
      diagnostics.push(
        diagnose(
          SKILL_FRONT_MATTER_INVALID,
          { variant: "notClosed", file },
          { file, line: 1, column: 1 },
        ),
      );
    else {
      bodyStart = end + 1;
      frontMatterRefs(lines.slice(1, end).join("\n"), file, refs, diagnostics);
    }
  } else
    diagnostics.push(
      diagnose(
        SKILL_FRONT_MATTER_INVALID,
        { variant: "missing", file },
        { file, line: 1, column: 1 },
      ),
    );
  let fenced = false;
  for (let i = bodyStart; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) fenced = !fenced;
    if (fenced) continue;
    for (const m of lines[i].matchAll(/`([^`\n]+)`/g)) {
      const token = m[1].trim();
      if (toolName.test(token))
        refs.push({ name: token, line: i + 1, column: (m.index ?? 0) + 2, from: "text" });
    }
  }
  return { refs, diagnostics };
}

function frontMatterRefs(
  yamlText: string,
  file: string,
  refs: ToolRef[],
  diagnostics: Diagnostic[],
): void {
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter });
  // Line numbers inside the front matter are offset by the opening `---` line.
  const at = (node: Node | null | undefined) => {
    const pos = counter.linePos(node?.range?.[0] ?? 0);
    return { line: pos.line + 1, column: pos.col };
  };
  if (doc.errors.length > 0) {
    diagnostics.push(
      diagnose(
        SKILL_FRONT_MATTER_INVALID,
        { variant: "yaml", file, error: doc.errors[0].message.split("\n")[0] },
        { file, ...at(null) },
      ),
    );
    return;
  }
  for (const key of ["name", "description"]) {
    const v = doc.get(key);
    if (typeof v !== "string" || v.trim() === "")
      diagnostics.push(
        diagnose(
          SKILL_FRONT_MATTER_INVALID,
          { variant: "field", file, key },
          { file, line: 2, column: 1 },
        ),
      );
  }
  for (const key of ["tools", "allowed-tools"]) {
    const node = doc.get(key, true) as Node | undefined;
    if (node === undefined) continue;
    const items: Node[] = isSeq(node) ? (node.items as Node[]) : isScalar(node) ? [node] : [];
    for (const item of items) {
      const value = isScalar(item) ? String(item.value) : "";
      for (const name of value.split(/[\s,]+/).filter(Boolean))
        refs.push({ name, ...at(item), from: "front-matter" });
    }
  }
}

import path from "node:path";
import { sortDiagnostics, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import type { ContractDoc } from "../../contract-model/contract-doc.js";
import { BundleInputError } from "../../contract-model/file-tree/collect-tree.js";
import { promptOnlyRules } from "./prompt-only.js";
import { skillToolRefs } from "./skill-refs.js";
import { readSkillTree, type SkillTree } from "./skill-tree.js";

const SKILL_UNKNOWN_TOOL = defineRule({
  id: "SKILL_UNKNOWN_TOOL",
  family: "skill-lint",
  severity: "error",
  summary: "A skill names a tool the contract does not have (L7).",
  message: "{tool} ({from}) is not a tool of {contract}",
});
const SKILL_TOOL_NOT_MODEL_VISIBLE = defineRule({
  id: "SKILL_TOOL_NOT_MODEL_VISIBLE",
  family: "skill-lint",
  severity: "error",
  summary: "A skill tells the model to use an app-only tool it cannot call (L7, L9).",
  message: '{tool} ({from}) is app-only (visibility ["app"]); the model cannot call it',
});
const SKILL_TOOL_SUPERSEDED = defineRule({
  id: "SKILL_TOOL_SUPERSEDED",
  family: "skill-lint",
  severity: "warning",
  summary:
    "A skill names a superseded tool: it still answers through its adapter, but a skill shipped " +
    "with this release steers to the replacement (the old name fails once it is removed).",
  message: "{tool} ({from}) is superseded by {replacement}: name {replacement} instead",
});
const SKILL_TREE_INVALID = defineRule({
  id: "SKILL_TREE_INVALID",
  family: "skill-lint",
  severity: "error",
  summary:
    "The skills tree cannot be frozen reproducibly: missing, a symlink or " +
    "special file, or no SKILL.md (L5, L7).",
  message: { unreadable: "{error}", noSkill: "{dir} holds no SKILL.md" },
});
const SKILL_TREE_HASH_MISMATCH = defineRule({
  id: "SKILL_TREE_HASH_MISMATCH",
  family: "skill-lint",
  severity: "error",
  summary: "The skills tree hash differs from the expected (recorded) hash (L7).",
  message: "{dir} hashes to sha256:{hash}, expected {expected}",
});

/** Result of Skill-Contract-Lint: findings plus the reproducible tree identity. */
export interface SkillLintResult {
  diagnostics: Diagnostic[];
  tree?: SkillTree;
  /**
   * The tree itself could not be read (missing, not a directory, no permission): unusable input,
   * exit 2, where a symlink or special file inside it is a finding.
   */
  unreadable?: boolean;
}

/**
 * Skill-Contract-Lint (L7): every tool a SKILL.md names exists in the contract and is visible to
 * the model; the tree hashes reproducibly (and, when `expectHash` is given, to that hash).
 * `skillsDir` is absolute; `label` is how files are named in findings (repository-relative).
 */
export async function skillLint(
  skillsDir: string,
  label: string,
  contract: ContractDoc,
  expectHash?: string,
): Promise<SkillLintResult> {
  let tree: SkillTree;
  try {
    tree = await readSkillTree(skillsDir);
  } catch (e) {
    return {
      unreadable: !(e instanceof BundleInputError) || e.file === skillsDir,
      diagnostics: [
        diagnose(
          SKILL_TREE_INVALID,
          {
            variant: "unreadable",
            error:
              e instanceof Error
                ? e.message.replace(path.dirname(skillsDir) + path.sep, "")
                : String(e),
          },
          { file: label },
        ),
      ],
    };
  }
  const out: Diagnostic[] = [];
  const skills = tree.files.filter((f) => path.posix.basename(f.path) === "SKILL.md");
  if (skills.length === 0)
    out.push(diagnose(SKILL_TREE_INVALID, { variant: "noSkill", dir: label }, { file: label }));
  for (const skill of skills) {
    const file = `${label}/${skill.path}`;
    const text = skill.data.toString("utf8");
    const { refs, diagnostics } = skillToolRefs(text, file);
    out.push(...diagnostics, ...promptOnlyRules(text, file, contract));
    for (const ref of refs) {
      const where = { file, line: ref.line, column: ref.column };
      const tool = contract.tools.get(ref.name);
      if (!tool)
        out.push(
          diagnose(
            SKILL_UNKNOWN_TOOL,
            { tool: ref.name, from: ref.from, contract: contract.file },
            where,
          ),
        );
      else if (tool.supersededBy !== undefined)
        out.push(
          diagnose(
            SKILL_TOOL_SUPERSEDED,
            { tool: ref.name, from: ref.from, replacement: tool.supersededBy },
            where,
          ),
        );
      else if (JSON.stringify(tool.visibility) === JSON.stringify(["app"]))
        out.push(diagnose(SKILL_TOOL_NOT_MODEL_VISIBLE, { tool: ref.name, from: ref.from }, where));
    }
  }
  if (expectHash && expectHash.replace(/^sha256[:-]/, "") !== tree.sha256)
    out.push(
      diagnose(
        SKILL_TREE_HASH_MISMATCH,
        { dir: label, hash: tree.sha256, expected: expectHash },
        { file: label },
      ),
    );
  return { diagnostics: sortDiagnostics(out), tree };
}

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  messageTemplates,
  type Rule,
  type RuleFamily,
  registeredRules,
  ruleAnchor,
  ruleFamilies,
  rulesDocPath,
} from "../diagnostics/rule.js";
import "./rule-index.js";

const sections: Record<RuleFamily, { title: string; intro: string }> = {
  cli: {
    title: "Every command",
    intro:
      "Paths a command cannot read or write, reported in the requested `--format` with exit 2 " +
      "(see [cli.md](cli.md#exit-codes)).",
  },
  generator: {
    title: "Generator",
    intro:
      "`skillpilot generate` and `generate --check`: the schema files, the generator's gate " +
      "rules, meta-schema validation and drift of `generated/`.",
  },
  lint: {
    title: "Gate lint",
    intro:
      "`skillpilot lint`: the automatable part of the 11-point gate (G1–G4, G11) and C5/C16. " +
      "Details in [lint.md](lint.md).",
  },
  diff: {
    title: "Contract-Diff",
    intro:
      "`skillpilot diff`: each change rule names the SemVer bump it requires (L6) and whether " +
      "a waiver may accept it, and how its findings read to clients that pin tool definitions " +
      "(`descriptive`, `behavioural`, or `by-text`: judged by the text a finding adds; " +
      "[pinning clients](contract-diff.md#pinning-clients)). In schema-compatibility messages `{gap}` is the difference as " +
      "worded for the direction of the comparison " +
      "([how findings are worded](contract-diff.md#how-findings-are-worded)); a breaking " +
      "finding without an Ajv-verified witness says so after the message. Details in " +
      "[contract-diff.md](contract-diff.md).",
  },
  "skill-lint": {
    title: "Skill-Contract-Lint",
    intro: "`skillpilot skill-lint` (L7). Details in [lint.md](lint.md#skillpilot-skill-lint).",
  },
  trace: {
    title: "Trace check",
    intro:
      "`skillpilot trace check`: recorded host traffic judged against the minimal turn " +
      "contract derived from the contract (G10, C2, C10, C11, C16). Details in " +
      "[traces.md](traces.md).",
  },
  release: {
    title: "Release",
    intro:
      "`prepare`, `freeze`, `unfreeze`, `record-published` and the release gate " +
      "`verify`. Details in [release.md](release.md).",
  },
};

// Table cells: a pipe splits cells (also inside code), `<` would start an HTML tag.
const text = (s: string) => s.replace(/\|/g, "\\|").replace(/</g, "&lt;");
const code = (s: string) => {
  const fence = "`".repeat(Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = fence.length > 1 ? " " : "";
  return `${fence}${pad}${s.replace(/\|/g, "\\|")}${pad}${fence}`;
};

function row(rule: Rule): string {
  const cells = [`<a id="${ruleAnchor(rule.id)}"></a>\`${rule.id}\``];
  if (rule.bump)
    cells.push(rule.bump, rule.severity, rule.waivable ? "yes" : "no", rule.pinning ?? "");
  else cells.push(rule.severity);
  cells.push(
    text(rule.summary),
    messageTemplates(rule.message)
      .map(([, template]) => code(template))
      .join("<br>"),
  );
  return `| ${cells.join(" | ")} |`;
}

/** `docs/rules.md` for the given rules: one section per family, one row and anchor per rule. */
export function renderRulesDoc(rules: readonly Rule[]): string {
  const lines = [
    "# Rule reference",
    "",
    "> Generated from the rule table by `npm run rules:doc` (tools/rules-doc.ts); do not edit.",
    "> Change a rule's `defineRule` declaration and regenerate. `npm run rules:check`, part of",
    "> `npm run lint`, fails when this file is out of date.",
    "",
    "Every finding a `skillpilot` command reports carries one of these rule ids. An id, once",
    "published, never changes meaning. Severity is the default; a report may lower it (a waived",
    "diff finding is a note). Messages are templates: `{name}` is filled in per finding,",
    "`{name:json}` as JSON; a rule that words several situations has one template per line.",
    "",
    ruleFamilies.map((f) => `[${sections[f].title}](#${slug(sections[f].title)})`).join(" · "),
  ];
  for (const family of ruleFamilies) {
    const own = rules.filter((r) => r.family === family);
    const changes = own.filter((r) => r.bump);
    const others = own.filter((r) => !r.bump);
    lines.push("", `## ${sections[family].title}`, "", sections[family].intro);
    if (changes.length > 0) {
      lines.push("", "| Rule | Bump | Severity | Waivable | Pinning | Summary | Message |");
      lines.push("|---|---|---|---|---|---|---|", ...changes.map(row));
    }
    if (others.length > 0) {
      if (changes.length > 0) lines.push("", "Versions, waivers and the compared documents:");
      lines.push("", "| Rule | Severity | Summary | Message |", "|---|---|---|---|");
      lines.push(...others.map(row));
    }
  }
  return `${lines.join("\n")}\n`;
}

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * CLI: write `docs/rules.md` under `root`, or with `--check` compare it with the table and fail
 * (1) when it differs.
 */
export async function main(
  args: readonly string[],
  root: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  const rules = registeredRules();
  const wanted = renderRulesDoc(rules);
  const file = path.join(root, rulesDocPath);
  if (!args.includes("--check")) {
    await writeFile(file, wanted);
    log(`wrote ${rulesDocPath} (${rules.length} rules)`);
    return 0;
  }
  const actual = await readFile(file, "utf8").catch(() => undefined);
  if (actual === wanted) {
    log(`rules doc: ${rulesDocPath} lists all ${rules.length} rules`);
    return 0;
  }
  const [a, w] = [actual?.split("\n") ?? [], wanted.split("\n")];
  const line = w.findIndex((l, i) => a[i] !== l) + 1 || a.length + 1;
  log(
    actual === undefined
      ? `${rulesDocPath} is missing; run \`npm run rules:doc\``
      : `${rulesDocPath} is out of date with the rule table (first difference at line ${line}); ` +
          "run `npm run rules:doc`",
  );
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`)
  process.exitCode = await main(process.argv.slice(2), process.cwd());

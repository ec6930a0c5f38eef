import path from "node:path";
import { Option, type Command } from "commander";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnosticFormats, renderDiagnostics, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { readDoc } from "../../release/diff/baselines.js";
import { skillLint } from "../../release/skill-lint/skill-lint.js";
import { ExitCode } from "../exit-codes.js";
import { projectPaths } from "./root.js";

interface SkillLintOptions {
  skills: string;
  contract: string;
  expectHash?: string;
  manifest?: boolean;
  format: DiagnosticFormat;
}

/** `skillpilot skill-lint`: Skill-Contract-Lint (L7, L12.3). */
export function registerSkillLintCommand(program: Command): void {
  program
    .command("skill-lint")
    .description("Check that every tool the skills name (front matter and backticked names) exists in the contract and is model-visible, and hash the skills tree reproducibly (sorted sha256 manifest).")
    .option("--skills <dir>", "skills tree", "skills")
    .option("--contract <file>", "contract snapshot or MCP tools/list JSON", "generated/contract.snapshot.json")
    .option("--expect-hash <sha256>", "fail unless the tree hashes to this value (e.g. the recorded bundle hash)")
    .option("--manifest", "print the sorted `sha256  path` manifest of the tree instead of the summary")
    .addOption(new Option("--format <format>", "output format").choices(diagnosticFormats).default("text"))
    .addHelpText("after", "\nExit codes: 0 all references resolve (and the hash matches), 1 findings, 2 usage or unreadable contract.")
    .action(async (opts: SkillLintOptions, command: Command) => {
      const root = projectPaths(command).root;
      const input: Diagnostic[] = [];
      const contract = await readDoc(root, opts.contract, input);
      if (!contract || hasErrors(input)) {
        process.stderr.write(renderDiagnostics(input, opts.format));
        process.exitCode = ExitCode.usage;
        return;
      }
      const label = path.relative(root, path.resolve(root, opts.skills)).split(path.sep).join("/") || ".";
      const { diagnostics, tree } = await skillLint(path.resolve(root, opts.skills), label, contract, opts.expectHash);
      if (opts.manifest && tree) process.stdout.write(tree.manifest);
      else if (opts.format === "json") process.stdout.write(JSON.stringify({ diagnostics, ...(tree ? { skillsTree: { sha256: tree.sha256, files: tree.files.length, manifest: tree.manifest } } : {}) }, null, 2) + "\n");
      else {
        process.stdout.write(renderDiagnostics(diagnostics, opts.format));
        if (tree && opts.format === "text") process.stdout.write(`${label}: sha256:${tree.sha256} (${tree.files.length} files)\n`);
      }
      process.exitCode = hasErrors(diagnostics) ? ExitCode.findings : ExitCode.ok;
    });
}

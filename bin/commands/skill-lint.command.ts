import path from "node:path";
import type { Command } from "commander";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { emitReport, emitStatus, formatOption } from "../report.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
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
    .summary("Check the tools the skills name")
    .description(
      "Check that every tool the skills name (front matter and backticked names) " +
        "exists in the contract and is model-visible, and hash the skills tree " +
        "reproducibly (sorted sha256 manifest).",
    )
    .option("--skills <dir>", "skills tree (relative to -C/--root)", projectLayout.skillsDir)
    .option(
      "--contract <file>",
      "contract snapshot or MCP tools/list JSON (relative to -C/--root)",
      "generated/contract.snapshot.json",
    )
    .option(
      "--expect-hash <sha256>",
      "fail unless the tree hashes to this value (e.g. the recorded bundle hash)",
    )
    .option(
      "--manifest",
      "print the sorted `sha256  path` manifest of the tree instead of the summary",
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "all references resolve (and the hash matches)",
        findings: "findings",
        usage: "usage, or an unreadable contract or skills tree",
      }),
    )
    .action(async (opts: SkillLintOptions, command: Command) => {
      const { hasErrors, sortDiagnostics } = await import("../../diagnostics/diagnostic.js");
      const { readDoc } = await import("../../checks/diff/baselines.js");
      const { skillLint } = await import("../../checks/skill-lint/skill-lint.js");
      const root = projectPaths(command).root;
      const input: Diagnostic[] = [];
      const contract = await readDoc(root, opts.contract, input);
      if (!contract || hasErrors(input)) {
        emitReport(input, opts.format);
        process.exitCode = ExitCode.usage;
        return;
      }
      const label =
        path.relative(root, path.resolve(root, opts.skills)).split(path.sep).join("/") || ".";
      const { diagnostics, tree, unreadable } = await skillLint(
        path.resolve(root, opts.skills),
        label,
        contract,
        opts.expectHash,
      );
      if (opts.manifest && tree) process.stdout.write(tree.manifest);
      // JSON carries the tree hash inside the document: `{"diagnostics":[…],"skillsTree":{…}}`.
      else if (opts.format === "json")
        process.stdout.write(
          `${JSON.stringify(
            {
              diagnostics: sortDiagnostics(diagnostics),
              ...(tree
                ? {
                    skillsTree: {
                      sha256: tree.sha256,
                      files: tree.files.length,
                      manifest: tree.manifest,
                    },
                  }
                : {}),
            },
            null,
            2,
          )}\n`,
        );
      else {
        emitReport(diagnostics, opts.format, { textTo: "stdout" });
        if (tree)
          emitStatus(opts.format, `${label}: sha256:${tree.sha256} (${tree.files.length} files)`);
      }
      if (unreadable) process.exitCode = ExitCode.usage;
      else process.exitCode = hasErrors(diagnostics) ? ExitCode.findings : ExitCode.ok;
    });
}

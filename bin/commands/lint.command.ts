import { type Command, Option } from "commander";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

/**
 * `skillpilot lint [FILE]`: the automatable acceptance gate over a contract snapshot or any
 * tools/list.
 */
export function registerLintCommand(program: Command): void {
  program
    .command("lint")
    .summary("Check the contract against the acceptance gate")
    .description(
      "Check the contract against the automatable acceptance gate: " +
        "write envelopes, no free text, closed inputs, no loops, one imperative, " +
        "UI only on reads, explicit truthful annotations, no secrets in outputs.",
    )
    .argument(
      "[file]",
      "a contract snapshot or MCP tools/list JSON (relative to -C/--root)",
      "generated/contract.snapshot.json",
    )
    .addOption(formatOption())
    .addOption(
      new Option(
        "--profile <directory>",
        "check one app directory's review rules instead of the acceptance gate: explicit and " +
          "truthful hints (also against the declared writes), titles, name lengths, app-only " +
          "helpers, widget CSP, privacy policy URL",
      ).choices(["openai-directory", "claude-directory"]),
    )
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "no errors (warnings allowed)",
        findings: "gate violations",
        usage: "usage or unreadable input",
      }),
    )
    .action(
      async (
        file: string,
        opts: { format: DiagnosticFormat; profile?: "openai-directory" | "claude-directory" },
        command: Command,
      ) => {
        const { hasErrors } = await import("../../diagnostics/diagnostic.js");
        const { withLines } = await import("../../diagnostics/locate.js");
        const { readDoc } = await import("../../checks/diff/baselines.js");
        const { lintContract } = await import("../../checks/lint/lint-contract.js");
        const root = projectPaths(command).root;
        const { warnStaleGenerated } = await import("../generated-freshness.js");
        await warnStaleGenerated(root, file);
        const input: Diagnostic[] = [];
        const doc = await readDoc(root, file, input);
        const textOf = (f: string) => {
          try {
            return readFileSync(path.resolve(root, f), "utf8");
          } catch {
            return undefined;
          }
        };
        if (!doc || hasErrors(input)) {
          emitReport(withLines(input, textOf), opts.format);
          process.exitCode = ExitCode.usage;
          return;
        }
        let found: Diagnostic[];
        if (opts.profile) {
          const { lintDirectory } = await import("../../checks/lint/directory/lint-directory.js");
          found = lintDirectory(doc, opts.profile, doc.text ? JSON.parse(doc.text) : undefined);
        } else found = lintContract(doc);
        process.exitCode = emitReport(withLines(found, textOf), opts.format, { textTo: "stdout" });
      },
    );
}

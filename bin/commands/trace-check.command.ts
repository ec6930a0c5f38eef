import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { defaultTraceLimits } from "../../checks/trace/read/trace-limits.js";
import { capArgument } from "../cap-argument.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { emitReport, emitStatus, formatOption } from "../report.js";
import { projectPaths, rootRelative } from "./root.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

interface CheckOptions {
  contract: string;
  turnGap: string;
  format: DiagnosticFormat;
  maxTraceMb?: number;
  maxDocumentMb?: number;
  maxLineMb?: number;
  maxDepth?: number;
}

const MB = 1024 * 1024;

/**
 * `skillpilot trace check FILE…`: judge recorded host traffic against the turn contract.
 */
export function registerTraceCheckCommand(trace: Command): void {
  trace
    .command("check")
    .summary("Judge recorded traces turn by turn")
    .description(
      "Judge traces (JSON Lines, a HAR file or an MCP Inspector protocol export) turn by turn: " +
        "one fresh full context per learner message, no polling, no read after a write, one " +
        "reload after a conflict, continuations followed exactly, retries with their own key, " +
        "only server-issued ids and no prose in arguments.",
    )
    .argument("<file...>", "trace files (relative to -C/--root)")
    .option(
      "--contract <file>",
      "contract snapshot or MCP tools/list JSON the trace is judged against (relative to -C/--root)",
      projectLayout.snapshotFile,
    )
    .option(
      "--turn-gap <seconds>",
      "for traces that mark no learner messages: a pause this long before a call starts a new turn",
      "30",
    )
    .option(
      "--max-trace-mb <n>",
      `refuse a trace file beyond n MB (default ${defaultTraceLimits.maxTraceBytes / MB})`,
      capArgument,
    )
    .option(
      "--max-document-mb <n>",
      `refuse a HAR file or Inspector export beyond n MB (default ${defaultTraceLimits.maxDocumentBytes / MB})`,
      capArgument,
    )
    .option(
      "--max-line-mb <n>",
      `refuse a JSON Lines line beyond n MB (default ${defaultTraceLimits.maxLineBytes / MB})`,
      capArgument,
    )
    .option(
      "--max-depth <n>",
      `refuse a message nested deeper than n levels (default ${defaultTraceLimits.maxDepth})`,
      capArgument,
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "every turn keeps the contract",
        findings: "turn-contract findings",
        usage: "usage, or a trace or contract that cannot be read or judged (also an empty trace)",
      }),
    )
    .action(async (files: string[], opts: CheckOptions, command: Command) => {
      const { readFile } = await import("node:fs/promises");
      const path = await import("node:path");
      const { withLines } = await import("../../diagnostics/locate.js");
      const { diagnose } = await import("../../diagnostics/rule.js");
      const { checkTrace, contractFacts } = await import("../../checks/trace/check-trace.js");
      const { TRACE_INPUT_INVALID } = await import("../../checks/trace/trace-input.js");
      const root = projectPaths(command).root;
      const gap = Number(opts.turnGap);
      if (!(gap > 0))
        command.error("error: --turn-gap must be a positive number of seconds", { exitCode: 2 });
      const label = (f: string) =>
        path.relative(root, path.resolve(root, f)).split(path.sep).join("/");
      const contractText = await readFile(rootRelative(command, opts.contract), "utf8");
      let facts: ReturnType<typeof contractFacts>;
      try {
        facts = contractFacts(JSON.parse(contractText));
      } catch {
        const { jsonError } = await import("../../diagnostics/json-error.js");
        facts = `it is not JSON: ${jsonError(contractText)?.message ?? "unreadable"}`;
      }
      if (typeof facts === "string") {
        const contract = label(opts.contract);
        emitReport(
          [
            diagnose(
              TRACE_INPUT_INVALID,
              { variant: "contract", contract, error: facts },
              { file: contract },
            ),
          ],
          opts.format,
        );
        process.exitCode = ExitCode.usage;
        return;
      }
      const { fileTraceInput, TraceTooLarge } = await import(
        "../../checks/trace/read/trace-input.js"
      );
      const limits = {
        ...defaultTraceLimits,
        ...(opts.maxTraceMb && { maxTraceBytes: opts.maxTraceMb * MB }),
        ...(opts.maxDocumentMb && { maxDocumentBytes: opts.maxDocumentMb * MB }),
        ...(opts.maxLineMb && { maxLineBytes: opts.maxLineMb * MB }),
        ...(opts.maxDepth && { maxDepth: opts.maxDepth }),
      };
      const found = [];
      let unusable = false;
      const texts = new Map<string, string>();
      for (const file of files) {
        const name = label(file);
        let input: ReturnType<typeof fileTraceInput>;
        try {
          input = fileTraceInput(rootRelative(command, file), limits);
        } catch (e) {
          unusable = true;
          found.push(
            diagnose(
              TRACE_INPUT_INVALID,
              e instanceof TraceTooLarge
                ? { variant: "traceTooLarge", file: name, mb: limits.maxTraceBytes / MB }
                : { variant: "unreadable", file: name },
              { file: name },
            ),
          );
          continue;
        }
        const result = checkTrace(input, name, facts, label(opts.contract), {
          turnGapSeconds: gap,
          limits,
        });
        if (input.text !== undefined) texts.set(name, input.text);
        unusable ||= result.unusable;
        // One at a time: a spread of 100 000 findings would overflow the call stack.
        for (const d of result.diagnostics) found.push(d);
        if (!result.unusable)
          emitStatus(
            opts.format,
            `${name}: ${result.events} events, ${result.turns} turn(s)` +
              `${result.inferred ? " (inferred from pauses)" : ""}, ${result.format}`,
          );
      }
      // A HAR file or Inspector export is located line by line only up to 8 MB (its syntax tree costs
      // many times its text); beyond, findings keep their JSON pointers.
      const located = withLines(found, (f) => texts.get(f), 8 * MB);
      process.exitCode = emitReport(located, opts.format, {
        textTo: "stdout",
        ...(unusable && { failWith: ExitCode.usage }),
      });
    });
}

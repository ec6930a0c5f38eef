import type { Command } from "commander";
import {
  liveClientOptions,
  liveServerOptions,
  type LiveServerFlags,
} from "../live-server-options.js";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { semverArgument } from "../semver-argument.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths } from "./root.js";

interface DiffOptions extends LiveServerFlags {
  against?: string[];
  format: DiagnosticFormat;
  waivers?: string;
  oldVersion?: string;
  newVersion?: string;
  snapshot: string;
  today?: string;
  versionCheck: boolean;
}

/**
 * `skillpilot diff [OLD] [NEW]`: direction-aware Contract-Diff with SemVer classification (L6,
 * L12.2).
 */
export function registerDiffCommand(program: Command): void {
  liveServerOptions(
    program
      .command("diff")
      .summary("Compare the contract with published snapshots")
      .description(
        "Compare the contract against every published snapshot (or --against, or " +
          "OLD NEW): breaking changes with witnesses, the minimum SemVer bump and " +
          "its class (server-only, patch, minor or incompatible).",
      )
      .argument(
        "[old]",
        'old contract: a snapshot, an MCP tools/list JSON ({"tools":[…]} or an array) or a ' +
          "live server's http(s)://HOST/mcp",
      )
      .argument("[new]", "new contract (default: the project's generated snapshot)")
      .option(
        "--against <spec>",
        "baseline instead of contracts/published/ (repeatable; a finding that holds against " +
          "several is reported once): a directory (every contract.snapshot.json below it), a " +
          "file, git:REF, or a live server's http(s)://HOST/mcp (its tools/list through the " +
          "official MCP client)",
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
  )
    .addOption(formatOption())
    .option("--waivers <file>", "waiver file (default: contracts/waivers.json when it exists)")
    .option(
      "--old-version <semver>",
      "package version of OLD (for plain tools/list documents)",
      semverArgument,
    )
    .option(
      "--new-version <semver>",
      "package version of NEW (for plain tools/list documents)",
      semverArgument,
    )
    .option(
      "--snapshot <file>",
      "the project's current snapshot",
      "generated/contract.snapshot.json",
    )
    .option(
      "--today <date>",
      "evaluate waiver expiry on this UTC date (YYYY-MM-DD) instead of today",
    )
    .option(
      "--no-version-check",
      "do not require the declared package version bump to cover the change (for a baseline " +
        "that is a development commit, e.g. CI's git merge base); breaking changes still fail",
    )
    .addHelpText(
      "after",
      "\nWith nothing to compare against (no published snapshot yet), the report holds the " +
        "warning DIFF_NO_BASELINE in every format.\nPaths (OLD, NEW, --against, --waivers, --snapshot) are relative to -C/--root." +
        exitCodesHelp({
          ok: "compatible, or nothing to compare against (with the DIFF_NO_BASELINE warning)",
          findings: "breaking change, declared version bump too low or waiver error",
          usage: "usage or input error",
        }),
    )
    .action(
      async (
        oldFile: string | undefined,
        newFile: string | undefined,
        opts: DiffOptions,
        command: Command,
      ) => {
        const { renderDiff } = await import("../../checks/diff/report.js");
        const { runDiff } = await import("../../checks/diff/run-diff.js");
        const now = opts.today ? new Date(`${opts.today}T12:00:00Z`) : new Date();
        if (Number.isNaN(now.getTime())) {
          process.stderr.write(`skillpilot diff: --today ${opts.today} is not a date\n`);
          process.exitCode = ExitCode.usage;
          return;
        }
        const { startProgress } = await import("../progress.js");
        const live = [oldFile, newFile, ...(opts.against ?? [])].find(
          (s) => s && /^https?:\/\//.test(s),
        );
        const progress = startProgress(
          "diff",
          live ? `reading the tools of ${live}` : "comparing the contract with its baselines",
        );
        const outcome = await runDiff({
          root: projectPaths(command).root,
          oldFile,
          newFile,
          against: opts.against,
          snapshotFile: opts.snapshot,
          oldVersion: opts.oldVersion,
          newVersion: opts.newVersion,
          waiverFile: opts.waivers,
          now,
          versionCheck: opts.versionCheck,
          live: liveClientOptions(opts),
        }).finally(progress.done);
        if (outcome.status === "input-error") {
          emitReport(outcome.diagnostics, opts.format);
          process.exitCode = ExitCode.usage;
          return;
        }
        // Nothing to compare is a result too: the same document, with the notice as its problem.
        process.stdout.write(renderDiff(outcome.result, opts.format));
        process.exitCode = outcome.failed ? ExitCode.findings : ExitCode.ok;
      },
    );
}

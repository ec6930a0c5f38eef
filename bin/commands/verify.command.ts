import { type Command, InvalidArgumentError } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { hasErrors } from "../../diagnostics/diagnostic.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { emitReport, formatOption } from "../report.js";
import {
  liveClientOptions,
  liveServerOptions,
  serverUrlArgument,
  type LiveServerFlags,
} from "../live-server-options.js";
import { projectPaths } from "./root.js";

interface VerifyOptions extends LiveServerFlags {
  format: DiagnosticFormat;
  since?: string;
  live?: string;
  laneHeader?: Record<string, Record<string, string>>;
}

/** `--lane-header "LANE=Name: value"` (repeatable) into headers per lane id. */
function collectLaneHeader(
  value: string,
  previous: Record<string, Record<string, string>> | undefined,
): Record<string, Record<string, string>> {
  const m = /^([a-z0-9-]+)=([A-Za-z0-9!#$%&'*+.^_`|~-]+):\s*(.*)$/.exec(value);
  if (!m) throw new InvalidArgumentError(`expected "LANE=Name: value", got "${value}".`);
  return { ...previous, [m[1]]: { ...previous?.[m[1]], [m[2]]: m[3] } };
}

/** `skillpilot verify`: the release CI gate. */
export function registerVerifyCommand(program: Command): void {
  liveServerOptions(
    program
      .command("verify")
      .summary("Check the release records and the line (CI gate)")
      .description(
        "Release CI gate: published folders match contracts/release-index.json and " +
          "rebuild to the same archives, release records only grow, a line is published only " +
          "by record-published, every published UI URI still serves identical bytes, the " +
          "manifest gate (names, versions, origins), the contract line across its git history " +
          "and the review freeze.",
      )
      .addOption(formatOption())
      .option(
        "--since <git:REF>",
        "also check the contract line's transitions and policyRevision against release/line.json " +
          "as committed at REF, and that the release index and published folders at REF are still " +
          "there byte for byte (CI passes its git baseline)",
      )
      .option(
        "--live <url>",
        "before submitting: also check that the deployed server at this http(s)://HOST/mcp " +
          "already serves the candidate package's tool definitions and every live approved one " +
          "(each published release not retired, the frozen draft), UI pages included; a passing " +
          "run is recorded in contracts/live-evidence.json (the server's origin, the date and the " +
          "candidate contract's hash), which record-published requires",
        serverUrlArgument,
      )
      .option(
        "--lane-header <lane=header>",
        "with --live and a signed statement of approved definitions: a request header for one " +
          'provider lane\'s endpoint, "LANE=Name: value" (repeatable), e.g. a token for a lane ' +
          "that signs in at connect",
        collectLaneHeader,
      ),
  )
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "all checks pass (warnings allowed)",
        findings: "findings",
        usage: "usage or I/O error",
      }),
    )
    .action(async (opts: VerifyOptions, command: Command) => {
      const root = projectPaths(command).root;
      if (opts.since !== undefined) {
        const { checkSinceRef } = await import("../../release/verify/since-ref.js");
        const unusable = await checkSinceRef(root, opts.since);
        if (unusable) {
          process.exitCode = emitReport([unusable], opts.format, { failWith: ExitCode.usage });
          return;
        }
      }
      const { verifyRelease } = await import("../../release/verify/verify.js");
      const { startProgress } = await import("../progress.js");
      const progress = startProgress(
        "verify",
        "checking the release records and the contract line's history",
      );
      const diagnostics = await verifyRelease(root, { since: opts.since }).finally(progress.done);
      let recorded = "";
      if (opts.live !== undefined) {
        const { checkLiveServer } = await import("../../release/verify/live-server.check.js");
        const checking = startProgress("verify", `listing the live server ${opts.live}`);
        const live = await checkLiveServer(root, opts.live, liveClientOptions(opts)).finally(
          checking.done,
        );
        diagnostics.push(...live.diagnostics);
        // The signed statement (experimental): the deployed one is the repository's, and it
        // approves every tool each lane lists.
        const { checkLiveStatement } = await import("../../release/verify/live-statement.check.js");
        if (!live.diagnostics.some((d) => d.ruleId === "LIVE_SERVER_UNREACHABLE"))
          diagnostics.push(
            ...(await checkLiveStatement(root, opts.live, {
              ...liveClientOptions(opts),
              ...(opts.laneHeader && { laneHeaders: opts.laneHeader }),
            })),
          );
        // Only a whole passing run is evidence record-published accepts.
        if (live.evidence && !hasErrors(diagnostics)) {
          const { appendLiveEvidence } = await import("../../release/publish/live-evidence.js");
          await appendLiveEvidence(root, live.evidence);
          recorded =
            `\nrecorded the passing live check of ${live.evidence.serverOrigin} for the contract ` +
            `of ${live.evidence.packageVersion} in contracts/live-evidence.json`;
        }
      }
      process.exitCode = emitReport(diagnostics, opts.format, {
        summary: `release verify: all checks passed${recorded}`,
      });
    });
}

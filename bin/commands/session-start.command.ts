import { type Command, Option } from "commander";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { overrides, runtimeOptions, type ServeOptions } from "../runtime-options.js";
import { projectPaths } from "./root.js";

/** `skillpilot session start`: mint a first-party learning session for a learner. */
export function registerSessionCommand(program: Command): void {
  const session = program
    .command("session")
    .summary("Start first-party learning sessions")
    .description("First-party learning sessions (never started from a chat tool).")
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );
  runtimeOptions(
    session
      .command("start")
      .summary("Start a learning session for a learner")
      .description(
        "Mint a learning session for a learner under the contract line in " +
          "release/line.json and print its sps_… id. Exit 1 when the line refuses " +
          "(BLOCK, or WARN without --acknowledge-successor).",
      )
      .requiredOption("--learner <name>", "first-party learner name (stays in the backend)")
      .addOption(
        new Option("--locale <locale>", "communication locale of the session")
          .choices(["en", "de"])
          .default("en"),
      )
      .option("--acknowledge-successor", "start on a WARN line although a successor exists")
      .option(
        "--lane <id>",
        "the provider lane the session is for; only that lane's endpoint serves it " +
          "(openai, claude, mcp, gemini; default openai)",
      )
      .addHelpText(
        "after",
        exitCodesHelp({
          ok: "session minted (its id on stdout)",
          findings: "the contract line refuses (BLOCK, or WARN without --acknowledge-successor)",
          usage: "usage, configuration or I/O error",
        }),
      ),
    "session",
  ).action(
    async (
      opts: ServeOptions & {
        learner: string;
        locale: "en" | "de";
        acknowledgeSuccessor?: boolean;
        lane?: string;
      },
      command: Command,
    ) => {
      const { createServices, closeServices } = await import("../../runtime/boot.js");
      const { loadConfig } = await import("../../runtime/config/config.js");
      const { isValidLearnerName, launchSession } = await import("../../runtime/domain/launch.js");
      const { probeServer, serverMismatch } = await import("../server-probe.js");
      if (!isValidLearnerName(opts.learner)) {
        process.stderr.write(
          "skillpilot: --learner must be a non-empty name of at most 200 characters\n",
        );
        process.exitCode = ExitCode.usage;
        return;
      }
      const { providerLanes } = await import("../../generated/identity.gen.js");
      if (opts.lane !== undefined && !providerLanes.some((l) => l.id === opts.lane)) {
        process.stderr.write(
          `skillpilot: no lane ${JSON.stringify(opts.lane)}; the lanes are ` +
            `${providerLanes.map((l) => l.id).join(", ")}\n`,
        );
        process.exitCode = ExitCode.usage;
        return;
      }
      const config = await loadConfig(projectPaths(command).root, {
        ...overrides(opts),
        logDestination: process.platform === "win32" ? "NUL" : "/dev/null",
      });
      // The session goes into this configuration's database: refuse before anything is created
      // when the server on the port named keeps its data elsewhere (it would never find it).
      const mismatch = await serverMismatch(config, await probeServer(config), {
        consequence: "start a session that server cannot find",
      });
      if (mismatch) {
        process.stderr.write(`skillpilot: ${mismatch}\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      const services = await createServices(config);
      try {
        const result = await launchSession(services, {
          learner: opts.learner,
          locale: opts.locale,
          acknowledgeSuccessor: opts.acknowledgeSuccessor === true,
          ...(opts.lane && { lane: opts.lane }),
        });
        if (result.kind === "minted") {
          process.stdout.write(`${result.learningSessionId}\n`);
        } else if (result.kind === "acknowledgementRequired") {
          process.stderr.write(
            `This line is being replaced by ${result.successor.launchUrl}. ` +
              `Re-run with --acknowledge-successor to start here anyway.\n`,
          );
          process.exitCode = ExitCode.findings;
        } else {
          process.stderr.write(
            `${result.error.code}: ${result.error.message} ${result.error.recovery}\n`,
          );
          process.exitCode = ExitCode.findings;
        }
      } finally {
        await closeServices(services);
      }
    },
  );
}

import { type Command, InvalidArgumentError, Option } from "commander";
import type { ConfigOverrides } from "../../runtime/config/config.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import type { BannerInput } from "../start-banner.js";
import { projectPaths } from "./root.js";

interface ServeOptions {
  host?: string;
  port?: number;
  dataDir?: string;
  config?: string;
}

function overrides(opts: ServeOptions): ConfigOverrides {
  return { host: opts.host, port: opts.port, dataDir: opts.dataDir, configFile: opts.config };
}

/** `--port`: an integer 0–65535, checked before anything starts. */
export function portArgument(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError(
      `expected a port number from 0 to 65535 (0 picks a free port), got "${value}".`,
    );
  return Number(value);
}

/** What `--host` and `--port` mean: the server binds them; `session start` binds nothing. */
const ADDRESS_HELP = {
  serve: {
    host: "interface to bind (env HOST; default 127.0.0.1)",
    port: "port to listen on, 0 for any free port (env PORT; default 3000)",
  },
  session: {
    host:
      "host of the server the session is for: its start page and OAuth resource; binds " +
      "nothing (env HOST; default 127.0.0.1)",
    port: "port of that server, as given to `start --port` (env PORT; default 3000)",
  },
} as const;

function runtimeOptions(command: Command, role: keyof typeof ADDRESS_HELP = "serve"): Command {
  return command
    .option("--host <host>", ADDRESS_HELP[role].host)
    .option("--port <port>", ADDRESS_HELP[role].port, portArgument)
    .option(
      "--data-dir <dir>",
      "SQLite database and secrets (env SKILLPILOT_DATA_DIR; default ./data)",
    )
    .option("--config <file>", "JSON config file (default ./skillpilot.config.json when present)");
}

/** `skillpilot start` (alias `serve`, what `npm start` runs) and `skillpilot session start`. */
export function registerStartCommand(program: Command): void {
  runtimeOptions(
    program
      .command("start")
      .alias("serve")
      .summary("Run the coach server")
      .description(
        "Run the SkillPilot Coach server: MCP endpoint at /mcp, first-party " +
          "launch at /api/sessions, /healthz and /metrics. SIGTERM/SIGINT drain " +
          "in-flight calls and close the database.",
      ),
  )
    .option(
      "--allow-contract-drift",
      "start even though the contract or server build differs from the one under review freeze",
    )
    .addHelpText(
      "after",
      "\nRelative --data-dir and --config paths are resolved against -C/--root.\n" +
        "The database: a state schema version from 3 up to this server's is migrated forward\n" +
        "(logged); a version this server does not know (a newer server wrote it) is refused, and\n" +
        "nothing is ever rolled back (see `skillpilot db`). A contract line whose policyRevision\n" +
        "is below the highest one the database was served under is refused." +
        exitCodesHelp({
          ok: "stopped cleanly (SIGTERM/SIGINT)",
          findings: "the contract drifted from the version under review freeze",
          usage:
            "usage, configuration or I/O error, an unknown database state schema version, a " +
            "lowered policyRevision, or a server build other than the one under review freeze",
        }),
    )
    .action(async (opts: ServeOptions & { allowContractDrift?: boolean }, command: Command) => {
      const { checkFrozenBuild, checkFrozenContract } = await import(
        "../../release/freeze/assert-not-drifted.js"
      );
      const { configEnvironment, loadConfig } = await import("../../runtime/config/config.js");
      const { serve } = await import("../../runtime/server.js");
      const root = projectPaths(command).root;
      // Review freeze (L3): while a version is under review, the served contract is locked to it.
      const freeze = checkFrozenContract(root, { allowDrift: opts.allowContractDrift === true });
      if (!freeze.ok) {
        process.stderr.write(`skillpilot: ${freeze.message}\n`);
        process.exitCode = ExitCode.findings;
        return;
      }
      // The freeze pins the server build too: code, generated, curricula, skills, UI, packages.
      const build = await checkFrozenBuild(root, { allowDrift: opts.allowContractDrift === true });
      if (!build.ok) {
        process.stderr.write(`skillpilot: ${build.message}\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      if (freeze.frozenVersion)
        process.stdout.write(`Review freeze: ${freeze.message}; ${build.message}\n`);
      // A build or a widget older than its sources is served as it is, but never silently.
      const { staleServeWarnings } = await import("../build-freshness.js");
      for (const warning of await staleServeWarnings(root))
        process.stderr.write(`skillpilot: warning: ${warning}\n`);
      // Configuration and port are checked before anything is created (exit 2 on a problem).
      // Every further contract major the project holds (majors/v<N>/, compiled by npm run build).
      const { loadProjectMajors } = await import("../../runtime/project-majors.js");
      const config = await loadConfig(root, overrides(opts));
      const { running, services } = await serve(config, {
        contracts: await loadProjectMajors(root),
      });
      // The stop handlers go in before the ready line: a supervisor that stops the server as soon
      // as it reads the line must get the clean stop, not the default signal death.
      const stopped = new Promise<string>((resolve) => {
        const stop = () => void running.close().then(() => resolve("closed"));
        process.once("SIGTERM", stop);
        process.once("SIGINT", stop);
        void running.stopped.then(resolve);
      });
      process.stdout.write(`SkillPilot Coach listening: MCP endpoint ${running.mcpUrl}\n`);
      const { settings } = services.auth;
      // The commands as printed act for exactly this server, also from a shell without its
      // environment (data directory, config file, host and port spelled out where they differ).
      const { bannerCommand } = await import("../start-banner.js");
      const banner: BannerInput = {
        config: services.config,
        plain: await loadConfig(root, { configFile: opts.config }, {}).catch(() => ({
          ...services.config,
          dataDir: "",
          host: "",
          port: -1,
        })),
        configFile: opts.config,
        cwd: process.cwd(),
        environment: configEnvironment(process.env),
      };
      if (settings.development)
        process.stdout.write(
          `OAuth: development issuer ${settings.issuer} (loopback only). An access token for ` +
            `a learner: ${bannerCommand("auth token --learner NAME", banner)}\n`,
        );
      else process.stdout.write(`OAuth: tokens of ${settings.issuer} for ${settings.resource}\n`);
      process.stdout.write(
        `Start a learning session at ${services.config.launchUrl} or: ` +
          `${bannerCommand("session start --learner NAME", banner)}\n`,
      );
      const reason = await stopped;
      if (reason === "client-policy-conflict") process.exitCode = ExitCode.usage;
    });

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
          "(openai, claude, mcp; default openai)",
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
      const { declaredLaneIds, isDeclaredLane } = await import("../../runtime/lanes/lane.js");
      if (opts.lane !== undefined && !isDeclaredLane(opts.lane)) {
        process.stderr.write(
          `skillpilot: no lane ${JSON.stringify(opts.lane)}; the lanes are ${declaredLaneIds()}\n`,
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

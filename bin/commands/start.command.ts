import type { Command } from "commander";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { overrides, runtimeOptions, type ServeOptions } from "../runtime-options.js";
import type { BannerInput } from "../start-banner.js";
import { projectPaths } from "./root.js";

/** `skillpilot start` (alias `serve`, what `npm start` runs): the coach server. */
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
      const { loadConfig } = await import("../../runtime/config/config.js");
      const { configEnvironment } = await import("../../runtime/config/config-env.js");
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
      const { warnStaleGenerated } = await import("../generated-freshness.js");
      await warnStaleGenerated(root);
      // Configuration and port are checked before anything is created (exit 2 on a problem).
      // Every further contract major the project holds (majors/v<N>/, compiled by npm run build).
      const { loadProjectMajors } = await import("../../runtime/project-majors.js");
      const config = await loadConfig(root, overrides(opts));
      // Definition tags (experimental) decide echoed tags by Contract-Diff's class of each change.
      const classifier = config.definitionTags
        ? (await import("../../checks/diff/tool-change-class.js")).classifyToolChange
        : undefined;
      const { running, services } = await serve(config, {
        contracts: await loadProjectMajors(root),
        ...(classifier && { classifyToolChange: classifier }),
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
}

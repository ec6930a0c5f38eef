import { type Command, InvalidArgumentError } from "commander";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { projectPaths } from "./root.js";

interface TokenOptions {
  learner: string;
  scope?: string[];
  ttl: number;
  host?: string;
  port?: number;
  dataDir?: string;
  config?: string;
  lane?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function positiveSeconds(value: string): number {
  if (!/^\d{1,7}$/.test(value) || Number(value) < 60)
    throw new InvalidArgumentError(`expected a lifetime in seconds (at least 60), got "${value}".`);
  return Number(value);
}

function portArgument(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError(`expected a port number from 0 to 65535, got "${value}".`);
  return Number(value);
}

/** `skillpilot auth token`: an access token of the local development issuer. */
export function registerAuthCommand(program: Command): void {
  const auth = program
    .command("auth")
    .summary("OAuth helpers for local development")
    .description(
      "OAuth helpers for local development: tokens of the development issuer a loopback server " +
        "runs when no OAuth issuer is configured.",
    )
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );
  auth
    .command("token")
    .summary("Print a development access token")
    .description(
      "Print an access token of the local development issuer (loopback servers without a " +
        "configured issuer): subject NAME, audience the local MCP URL, all of the contract's " +
        "scopes unless --scope is given. Only the token goes to stdout.",
    )
    .requiredOption("--learner <name>", "the token's subject (the learner the session is for)")
    .option(
      "--scope <scope>",
      "a scope to grant (repeatable; default: every contract scope)",
      collect,
    )
    .option("--ttl <seconds>", "lifetime in seconds, at least 60", positiveSeconds, 3600)
    .option(
      "--lane <id>",
      "a token for that provider lane's OAuth resource (claude, mcp, gemini; default the openai lane's)",
    )
    .option("--host <host>", "the server's interface (env HOST; default 127.0.0.1)")
    .option("--port <port>", "the server's port (env PORT; default 3000)", portArgument)
    .option("--data-dir <dir>", "where the development key lives (default ./data)")
    .option("--config <file>", "JSON config file (default ./skillpilot.config.json when present)")
    .addHelpText(
      "after",
      "\nThe issuer and audience name the server's origin, so use the same --host/--port/--config " +
        "as `skillpilot start`." +
        exitCodesHelp({
          ok: "token printed",
          usage: "usage or configuration error, or a configured (non-development) issuer",
        }),
    )
    .action(async (opts: TokenOptions, command: Command) => {
      const { loadConfig } = await import("../../runtime/config/config.js");
      const { resolveAuthSettings } = await import("../../runtime/auth/auth-settings.js");
      const { loadDevIssuer } = await import("../../runtime/auth/dev-issuer.js");
      const { runtimeIdentity } = await import("../../runtime/identity.js");
      const { probeServer, serverMismatch } = await import("../server-probe.js");
      const config = await loadConfig(projectPaths(command).root, {
        host: opts.host,
        port: opts.port,
        dataDir: opts.dataDir,
        configFile: opts.config,
      });
      const settings = resolveAuthSettings(config, runtimeIdentity(config.serverBuild));
      if (!settings.development) {
        process.stderr.write(
          `skillpilot: this server's tokens come from ${settings.issuer}; ` +
            "`auth token` mints development tokens only\n",
        );
        process.exitCode = ExitCode.usage;
        return;
      }
      const unknown = (opts.scope ?? []).filter((s) => !settings.scopesSupported.includes(s));
      if (unknown.length) {
        process.stderr.write(
          `skillpilot: unknown scope ${unknown.join(", ")}; the contract's scopes are ` +
            `${settings.scopesSupported.join(", ")}\n`,
        );
        process.exitCode = ExitCode.usage;
        return;
      }
      const lane = opts.lane ? settings.lanes.find((l) => l.id === opts.lane) : undefined;
      if (opts.lane && !lane) {
        process.stderr.write(
          `skillpilot: no lane ${JSON.stringify(opts.lane)}; this server's lanes are ` +
            `${settings.lanes.map((l) => l.id).join(", ")}\n`,
        );
        process.exitCode = ExitCode.usage;
        return;
      }
      // The token is signed with the key in this configuration's data directory and names this
      // configuration's issuer and resource: refuse before the key is created when the server on
      // the port named checks other ones (it would refuse the token).
      const mismatch = await serverMismatch(config, await probeServer(config), {
        consequence: "sign the token with another development key than that server checks",
        resource: settings.resource,
        issuer: settings.issuer,
      });
      if (mismatch) {
        process.stderr.write(`skillpilot: ${mismatch}\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      const issuer = await loadDevIssuer(config.dataDir);
      const token = await issuer.mint({
        issuer: settings.issuer,
        audience: lane?.resource ?? settings.resource,
        subject: opts.learner.trim(),
        scopes: opts.scope ?? settings.scopesSupported,
        ttlSeconds: opts.ttl,
      });
      process.stdout.write(`${token}\n`);
    });
}

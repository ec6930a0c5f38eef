import type { Command } from "commander";
import { exitCodesHelp } from "../exit-codes.js";
import { portArgument } from "../runtime-options.js";
import { rootRelative } from "./root.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

interface RecordOptions {
  upstream: string;
  port: number;
  out: string;
  contract: string;
  fingerprintKey?: string;
}

/** `skillpilot trace record`: a loopback recording proxy in front of any MCP server. */
export function registerTraceRecordCommand(trace: Command): void {
  trace
    .command("record")
    .summary("Record MCP traffic through a loopback proxy")
    .description(
      "Run a loopback recording proxy in front of an MCP server: point the host at " +
        "http://127.0.0.1:PORT/… and every JSON-RPC message is appended, redacted, to the " +
        "trace. POST /.trace/learner-message marks a new learner message. Stops on Ctrl-C.",
    )
    .requiredOption(
      "--upstream <url>",
      "the MCP endpoint to forward to, e.g. http://127.0.0.1:3000/mcp",
    )
    .option("--port <n>", "loopback port of the proxy (0 picks a free one)", portArgument, 0)
    .option("--out <file>", "trace file to append to (relative to -C/--root)", "trace.jsonl")
    .option(
      "--contract <file>",
      "contract whose session field and prose fields guide redaction (relative to -C/--root)",
      projectLayout.snapshotFile,
    )
    .option(
      "--fingerprint-key <key>",
      "base64url key of the session fingerprints (the server's log key, so they match its log " +
        "lines); default: a random key for this recording",
    )
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "stopped after recording",
        usage: "usage, or the port or file cannot be used",
      }),
    )
    .action(async (opts: RecordOptions, command: Command) => {
      const { startRecordingProxy } = await import("../../checks/trace/record/recording-proxy.js");
      const proxy = await startRecordingProxy({
        upstream: opts.upstream,
        port: opts.port,
        out: rootRelative(command, opts.out),
        contract: rootRelative(command, opts.contract),
        ...(opts.fingerprintKey && { fingerprintKey: opts.fingerprintKey }),
      });
      process.stdout.write(
        `recording proxy on ${proxy.url} → ${opts.upstream}, writing ${opts.out}\n` +
          `mark a learner message: curl -X POST ${proxy.origin}/.trace/learner-message\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await proxy.close();
      process.stdout.write(`recorded ${proxy.events()} events to ${opts.out}\n`);
    });
}

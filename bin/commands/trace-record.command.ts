import { type Command, InvalidArgumentError } from "commander";
import { defaultTraceLimits } from "../../checks/trace/read/trace-limits.js";
import { capArgument } from "../cap-argument.js";
import { exitCodesHelp } from "../exit-codes.js";
import { portArgument } from "../runtime-options.js";
import { rootRelative } from "./root.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

const MB = 1024 * 1024;

interface RecordOptions {
  upstream: string;
  caFile?: string;
  port: number;
  out: string;
  contract: string;
  fingerprintKey?: string;
  redactPattern?: RegExp[];
  maxMessageMb?: number;
}

/** A `--redact-pattern` value: a regular expression that never matches the empty string. */
function tokenPattern(value: string, previous: RegExp[] = []): RegExp[] {
  let pattern: RegExp;
  try {
    pattern = new RegExp(value, "g");
  } catch {
    throw new InvalidArgumentError(`not a regular expression: "${value}".`);
  }
  if (new RegExp(value).test(""))
    throw new InvalidArgumentError(`"${value}" matches the empty string.`);
  return [...previous, pattern];
}

/** `skillpilot trace record`: a loopback recording proxy in front of any MCP server. */
export function registerTraceRecordCommand(trace: Command): void {
  trace
    .command("record")
    .summary("Record MCP traffic through a loopback proxy")
    .description(
      "Run a loopback recording proxy in front of an MCP server: point the host at " +
        "http://127.0.0.1:PORT/… and every JSON-RPC message on the MCP path is appended, " +
        "redacted, to the trace. POST /.trace/learner-message marks a new learner message. " +
        "Stops on Ctrl-C.",
    )
    .requiredOption(
      "--upstream <url>",
      "the MCP endpoint to forward to, e.g. http://127.0.0.1:3000/mcp or https://coach.example/mcp " +
        "(TLS, certificate verified)",
    )
    .option(
      "--ca-file <pem>",
      "CA certificate(s) an https upstream is verified against (relative to -C/--root; default: the system's)",
    )
    .option("--port <n>", "loopback port of the proxy (0 picks a free one)", portArgument, 0)
    .option("--out <file>", "trace file to append to (relative to -C/--root)", "trace.jsonl")
    .option(
      "--contract <file>",
      "contract whose session field and prose fields guide redaction (relative to -C/--root)",
      projectLayout.snapshotFile,
    )
    .option(
      "--redact-pattern <regex>",
      "redact every match of this token shape anywhere in a recorded string (repeatable); the " +
        "Authorization header's token is always redacted",
      tokenPattern,
    )
    .option(
      "--max-message-mb <n>",
      `record a message or SSE event up to n MB; a larger one is forwarded and marked unrecorded (default ${defaultTraceLimits.maxLineBytes / MB})`,
      capArgument,
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
        usage: "usage, or the upstream URL, CA file, port or trace file cannot be used",
      }),
    )
    .action(async (opts: RecordOptions, command: Command) => {
      const { startRecordingProxy } = await import("../../checks/trace/record/recording-proxy.js");
      const proxy = await startRecordingProxy({
        upstream: opts.upstream,
        ...(opts.caFile && { caFile: rootRelative(command, opts.caFile) }),
        port: opts.port,
        out: rootRelative(command, opts.out),
        contract: rootRelative(command, opts.contract),
        ...(opts.fingerprintKey && { fingerprintKey: opts.fingerprintKey }),
        ...(opts.redactPattern && { tokenPatterns: opts.redactPattern }),
        ...(opts.maxMessageMb && { maxMessageBytes: opts.maxMessageMb * MB }),
        log: (line) => process.stderr.write(`skillpilot: ${line}\n`),
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

import { type Command, InvalidArgumentError } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { defaultTraceLimits } from "../../checks/trace/read/trace-limits.js";
import { capArgument } from "../cap-argument.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { emitReport, emitStatus, formatOption } from "../report.js";
import { projectPaths, rootRelative } from "./root.js";
import { portArgument } from "./start.command.js";

const DEFAULT_CONTRACT = "generated/contract.snapshot.json";

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

/**
 * `skillpilot trace check FILE…` (judge recorded host traffic against the turn contract) and
 * `skillpilot trace record` (a loopback recording proxy in front of any MCP server).
 */
export function registerTraceCommand(program: Command): void {
  const trace = program
    .command("trace")
    .summary("Record MCP traffic and judge recorded traces")
    .description(
      "Record MCP traffic between a host and a server, and judge recorded traces against " +
        "the turn contract derived from the contract.",
    )
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );
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
      DEFAULT_CONTRACT,
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
        facts = "it is not JSON";
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
      DEFAULT_CONTRACT,
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

import type { Command } from "commander";
import { exitCodesHelp } from "../exit-codes.js";
import { registerTraceCheckCommand } from "./trace-check.command.js";
import { registerTraceRecordCommand } from "./trace-record.command.js";

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
  registerTraceCheckCommand(trace);
  registerTraceRecordCommand(trace);
}

/**
 * The floor of the Verified Recall round (benchmark only): the real coach server — same Koa app,
 * SDK endpoint, input validation, call log and metrics — whose three recall handlers answer every
 * call after their first with the output that first call produced. A round against it costs what
 * the round costs without its domain work (session gate, store reads, the two durable commits,
 * capability mints and opens), so "round − floor" is what the domain adds.
 * Usage: node --import tsx bench/runtime/floor-server.ts DATA_DIR (DATA_DIR seeded with at least
 * one learner whose recall is due). Prints its MCP URL on stdout; SIGTERM stops it.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CoachHandlers, ToolName } from "../../generated/handlers.gen.js";
import { loadConfig } from "../../runtime/config/config.js";
import { coachHandlers } from "../../runtime/domain/handlers/index.js";
import { serve } from "../../runtime/server.js";
import type { CallContext } from "../../runtime/domain/call-context.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: floor-server.ts DATA_DIR");

/** A handler that runs once for real, then replays that first output (errors are not kept). */
function replayFirst<N extends ToolName>(tool: N): CoachHandlers<CallContext>[N] {
  const real = coachHandlers[tool] as (input: unknown, ctx: CallContext) => Promise<unknown>;
  let first: unknown;
  return (async (input: unknown, ctx: CallContext) =>
    (first ??= await real(input, ctx))) as unknown as CoachHandlers<CallContext>[N];
}

const handlers: CoachHandlers<CallContext> = {
  ...coachHandlers,
  start_skillpilot_verified_recall: replayFirst("start_skillpilot_verified_recall"),
  get_skillpilot_verified_recall_answers: replayFirst("get_skillpilot_verified_recall_answers"),
  record_skillpilot_verified_recall_results: replayFirst(
    "record_skillpilot_verified_recall_results",
  ),
};
const { running } = await serve(
  await loadConfig(root, {
    dataDir,
    port: 0,
    logDestination: path.join(dataDir, "floor-calls.log"),
  }),
  { handlers },
);
process.stdout.write(`MCP endpoint ${running.mcpUrl}\n`);
process.once("SIGTERM", () => void running.close());

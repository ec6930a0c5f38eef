import type { ToolHandler, ToolName } from "../../../generated/handlers.gen.js";
import { CoachError } from "../../errors.js";
import type { CallContext } from "../../services.js";

/**
 * A tool of the contract whose workflow this server does not run yet: a clean, typed
 * TEMPORARILY_UNAVAILABLE instead of a crash, so text coaching continues.
 */
export function notWired<N extends ToolName>(_tool: N): ToolHandler<N, CallContext> {
  return async () => {
    throw new CoachError("TEMPORARILY_UNAVAILABLE");
  };
}

import type { ToolHandler } from "../../../generated/handlers.gen.js";
import type { CallContext } from "../call-context.js";
import { buildFullContext } from "../full-context.js";
import { readHandler } from "../read-pipeline.js";

/** Read: the session's complete, authoritative context (C2). */
export const getSkillpilotLearningContext: ToolHandler<
  "get_skillpilot_learning_context",
  CallContext
> = readHandler((_input, { deps, session, snapshot, now }) =>
  buildFullContext(deps, session, snapshot, now),
);

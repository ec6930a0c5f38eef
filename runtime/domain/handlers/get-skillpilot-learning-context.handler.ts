import type { ToolHandler } from "../../../generated/handlers.gen.js";
import type { CallContext } from "../../services.js";
import { buildFullContext } from "../full-context.js";
import { openSession } from "../session-gate.js";

/** Read: the session's complete, authoritative context (C2). */
export const getSkillpilotLearningContext: ToolHandler<
  "get_skillpilot_learning_context",
  CallContext
> = async (input, ctx) => {
  const session = await openSession(input.learningSessionId, ctx);
  const snapshot = await ctx.services.store.loadLearner(session.learnerId);
  ctx.facts.stateVersion = snapshot.stateVersion;
  return buildFullContext(ctx.services, session, snapshot, ctx.now);
};

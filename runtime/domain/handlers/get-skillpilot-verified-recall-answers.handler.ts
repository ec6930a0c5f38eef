import type { ToolHandler } from "../../../generated/handlers.gen.js";
import type { CallContext } from "../call-context.js";
import { readHandler } from "../read-pipeline.js";
import { batchAnswers, noBatch } from "../verified-recall.js";
import { checkCapability, issueCapability } from "../workflow-capabilities.js";

/**
 * Read: for the open batch named by a valid batchCapability, the complete ordered reference
 * answers and a gradingCapability (C12). The only output that ever carries reference answers
 * (C15). Repeatable while the batch is open; each call issues a fresh grading capability, and
 * the batch can be recorded once.
 */
export const getSkillpilotVerifiedRecallAnswers: ToolHandler<
  "get_skillpilot_verified_recall_answers",
  CallContext
> = readHandler((input, scope) => {
  const { deps, session, snapshot } = scope;
  const batch = snapshot.state.recallBatch;
  checkCapability(scope, "batch", input.batchCapability, { batchId: batch?.batchId ?? noBatch });
  // A current batch capability implies the batch is open.
  const open = batch!;
  return {
    answers: batchAnswers(deps.curriculum, open, session.locale),
    gradingCapability: issueCapability(
      scope,
      "grading",
      { batchId: open.batchId },
      { items: open.goalIds.length },
    ),
  };
});

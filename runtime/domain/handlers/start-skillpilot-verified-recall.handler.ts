import type { ToolHandler, ToolOutput } from "../../../generated/handlers.gen.js";
import { CoachError } from "../../errors.js";
import { factsOf, reported, reportingFailure } from "../call-facts.js";
import { writeHandler } from "../write-pipeline.js";
import type { CallContext } from "../call-context.js";
import type { RecallBatchState } from "../learner-state.js";
import { dueRecallItems } from "../recall-items.js";
import { batchPrompts, newBatchId } from "../verified-recall.js";
import { issueCapability, type CapabilityScope } from "../workflow-capabilities.js";

type Output = ToolOutput<"start_skillpilot_verified_recall">;

/** Thrown inside the transaction when another call opened the batch first; nothing is written. */
class BatchAlreadyOpen extends Error {}

/** The batch as the model sees it: ordered prompts (never answers) and a fresh batchCapability. */
function batchOutput(scope: CapabilityScope, batch: RecallBatchState): Output {
  return {
    batch: { items: batchPrompts(scope.deps.curriculum, batch, scope.session.locale) },
    batchCapability: issueCapability(scope, "batch", { batchId: batch.batchId }),
  };
}

/** The write that opens a batch: the due items in server order, at most one batch's worth. */
const openBatch = writeHandler({
  tool: "start_skillpilot_verified_recall",
  apply(_input, { snapshot, now }) {
    if (snapshot.state.recallBatch) throw new BatchAlreadyOpen();
    const due = dueRecallItems(snapshot, now);
    if (due.length === 0) throw new CoachError("NOT_ELIGIBLE");
    const batch: RecallBatchState = {
      batchId: newBatchId(),
      goalIds: due.map((item) => item.id),
      openedAt: now.toISOString(),
    };
    return { state: { ...snapshot.state, recallBatch: batch }, value: batch };
  },
  respond: ({ deps, session, now, value }) => batchOutput({ deps, session, now }, value),
});

/**
 * Write (idempotent): open the Verified Recall batch of the due recall items, or return the batch
 * that is already open — the same items in the same order — without writing anything (C12).
 */
export const startSkillpilotVerifiedRecall: ToolHandler<
  "start_skillpilot_verified_recall",
  CallContext
> = async (input, ctx) => {
  try {
    return await openBatch(input, ctx);
  } catch (error) {
    if (!(error instanceof BatchAlreadyOpen)) throw error;
    // The pipeline checked the session and rolled back; answer with the open batch, read-only.
    const session = ctx.session!;
    const facts = { ...factsOf(error) };
    return reportingFailure(facts, async () => {
      const snapshot = await ctx.deps.store.loadLearner(session.learnerId);
      facts.stateVersion = snapshot.stateVersion;
      const scope = { deps: ctx.deps, session, now: ctx.now };
      return reported(batchOutput(scope, snapshot.state.recallBatch!), facts);
    });
  }
};

import { assertBound, CapabilityError } from "../../capability/index.js";
import { CoachError } from "../../errors.js";
import { writeHandler } from "../write-pipeline.js";
import { checkpointPending } from "../checkpoints.js";
import { continuationAfter } from "../continuation.js";
import { masteredGoals } from "../learner-state.js";
import { advanceAfterMastery } from "../learning-rules.js";
import { gradableBatchId, recordBatch } from "../verified-recall.js";
import { checkCapability } from "../workflow-capabilities.js";

/**
 * Write: the learner-consented `passed` decisions of the batch, exactly one per item in batch
 * order (C7, C12), in one atomic write. The grading capability is single-use: the write spends
 * it, so an exact replay gets the stored receipt and any other use is CAPABILITY_REPLAYED. With
 * no goal active, the backend then picks the next step; the answer is one receipt (without the
 * session id) and one continuation (C13).
 */
export const recordSkillpilotVerifiedRecallResults = writeHandler({
  tool: "record_skillpilot_verified_recall_results",
  // Decrypt, completeness, expiry and policy revision now; the batch binding against the locked
  // state.
  authorize: (input, scope) =>
    checkCapability(scope, "grading", input.gradingCapability, "deferred"),
  bind: (claims, snapshot) => assertBound(claims, { batchId: gradableBatchId(snapshot.state) }),
  spends: (claims) => claims,
  // No clientRequestId on this tool: the single-use token is the operation's identity.
  requestKey: (_input, claims) => claims.jti,
  apply(input, { deps, snapshot, now, auth: claims }) {
    const batch = snapshot.state.recallBatch;
    // Recorded already (by another grading capability of the same batch), or replaced meanwhile.
    if (!batch || batch.batchId !== claims.bid)
      throw new CapabilityError("CAPABILITY_STALE", "batch");
    if (input.assessments.length !== batch.goalIds.length) throw new CoachError("BATCH_INCOMPLETE");
    const recorded = recordBatch(
      snapshot,
      batch,
      input.assessments.map((a) => a.passed),
      now,
    );
    let state = recorded.state;
    if (!state.activeGoalId) {
      const mastered = masteredGoals(snapshot);
      state = advanceAfterMastery(
        deps.curriculum,
        state,
        mastered,
        checkpointPending(deps.curriculum, { state, progress: snapshot.progress }, mastered, now),
      );
    }
    return {
      state,
      value: {
        activeBefore: snapshot.state.activeGoalId,
        passed: recorded.passed,
        failed: recorded.failed,
      },
    };
  },
  respond: ({ deps, snapshot, now, receipt, value }) => ({
    receipt,
    recalled: { passed: value.passed, failed: value.failed },
    continuation: continuationAfter(deps.curriculum, value.activeBefore, snapshot, now),
  }),
});

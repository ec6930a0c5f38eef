import { initialLearnerState } from "../../../runtime/domain/learner-state.js";
import type { CoachStore } from "../../../runtime/domain/ports/coach-store.js";

/**
 * A learner named `name` with a session of its own (an hour long) in `store`, for writes that record
 * receipts and idempotency keys.
 */
export async function learnerWithSession(
  store: CoachStore,
  name: string,
): Promise<{ learnerId: number; sessionId: string }> {
  const at = new Date().toISOString();
  const learnerId = await store.write((tx) => tx.ensureLearner(name, initialLearnerState, at));
  const sessionId = `sps_${name.replace(/[^a-z0-9]/g, "").padEnd(26, "0")}`;
  await store.write((tx) =>
    tx.insertSession({
      sessionId,
      learnerId,
      locale: "en",
      contractMajor: 1,
      workflowVersion: "coach@2.3",
      curriculumRevision: "r",
      policyRevision: 3,
      createdAt: at,
      expiresAt: Date.now() + 3_600_000,
    }),
  );
  return { learnerId, sessionId };
}

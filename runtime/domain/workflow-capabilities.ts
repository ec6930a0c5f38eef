import { mintCapability, openCapability, type ClaimData, type Claims, type Purpose } from "../capability/index.js";
import type { RuntimeServices } from "../services.js";
import type { SessionRecord } from "../store/store.js";

/** Purposes of the coach workflows' capabilities (options have their own payload family). */
export type WorkflowPurpose = Exclude<Purpose, "option">;

/** How long a capability stays valid after it was issued. */
export const capabilityLifetimeMs: Readonly<Record<WorkflowPurpose, number>> = {
  batch: 2 * 3600_000,
  grading: 3600_000,
  assessment: 3600_000,
  practice: 2 * 3600_000,
};

/** Who a capability is issued to and when: the session (by fingerprint) and the call's clock; the line policyRevision comes from services. */
export interface CapabilityScope {
  services: RuntimeServices;
  session: SessionRecord;
  now: Date;
}

/** What a capability is pinned to: a state version (assessment) or a batch/deck id (the others). */
export type CapabilityBinding = { stateVersion: number } | { batchId: string };

/** Issue a capability for this session under the line's current policyRevision (C11, L11). */
export function issueCapability(scope: CapabilityScope, purpose: WorkflowPurpose, binding: CapabilityBinding, data?: ClaimData): string {
  return mintCapability(scope.services.keyring, {
    purpose,
    learningSessionId: scope.session.sessionId,
    policyRevision: scope.services.line.policyRevision(),
    expiresAt: new Date(scope.now.getTime() + capabilityLifetimeMs[purpose]),
    ...binding,
    ...(data !== undefined && { data }),
  });
}

/**
 * The storage-free checks of a capability sent back by the model: decrypt → complete (purpose,
 * session) → not stale (expiry, the line's current policyRevision, binding). Throws CapabilityError, which the
 * dispatcher answers with its stable code. The replay check runs inside the write transaction.
 */
export function checkCapability(scope: CapabilityScope, purpose: WorkflowPurpose, token: string, binding: CapabilityBinding): Claims {
  return openCapability(scope.services.keyring, token, {
    purpose,
    learningSessionId: scope.session.sessionId,
    policyRevision: scope.services.line.policyRevision(),
    now: scope.now,
    ...binding,
  });
}

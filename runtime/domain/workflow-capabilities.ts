import {
  mintCapability,
  openCapability,
  type Binding,
  type ClaimData,
  type Claims,
  type Purpose,
} from "../capability/index.js";
import type { HandlerDeps, OpenSession } from "./call-context.js";

/** Purposes of the coach workflows' capabilities (options have their own payload family). */
export type WorkflowPurpose = Exclude<Purpose, "option">;

/** How long a capability stays valid after it was issued. */
export const capabilityLifetimeMs: Readonly<Record<WorkflowPurpose, number>> = {
  batch: 2 * 3600_000,
  grading: 3600_000,
  assessment: 3600_000,
  practice: 2 * 3600_000,
};

/**
 * Who a capability is issued to and when: the session (by fingerprint), the line revision in force
 * and the call's clock.
 */
export interface CapabilityScope {
  deps: HandlerDeps;
  /**
   * The gated session; its policyRevisionInForce is what capabilities are minted and checked under.
   */
  session: OpenSession;
  now: Date;
}

/** What a capability is pinned to: a state version (assessment) or a batch/deck id (the others). */
export type CapabilityBinding = Binding;

/** Issue a capability for this session under the line's current policyRevision (C11, L11). */
export function issueCapability(
  scope: CapabilityScope,
  purpose: WorkflowPurpose,
  binding: CapabilityBinding,
  data?: ClaimData,
): string {
  return mintCapability(scope.deps.keyring, {
    purpose,
    learningSessionId: scope.session.sessionId,
    policyRevision: scope.session.policyRevisionInForce,
    expiresAt: new Date(scope.now.getTime() + capabilityLifetimeMs[purpose]),
    ...binding,
    ...(data !== undefined && { data }),
  });
}

/**
 * The storage-free checks of a capability sent back by the model: decrypt → complete (purpose,
 * session) → not stale (expiry, the line's current policyRevision, binding). Throws
 * CapabilityError, which the dispatcher answers with its stable code. The replay check runs inside
 * the write transaction. With `"deferred"`, the binding is left to the write rule's `bind` step
 * (`assertBound` against the state locked in the transaction), so a write reads its learner once.
 */
export function checkCapability(
  scope: CapabilityScope,
  purpose: WorkflowPurpose,
  token: string,
  binding: CapabilityBinding | "deferred",
): Claims {
  return openCapability(scope.deps.keyring, token, {
    purpose,
    learningSessionId: scope.session.sessionId,
    policyRevision: scope.session.policyRevisionInForce,
    now: scope.now,
    ...(binding === "deferred" ? { deferBinding: true } : binding),
  });
}

/**
 * Stable error codes of the capability checks (C11). The pipeline maps them onto its own
 * error table; the codes never change meaning once published.
 *
 * - CAPABILITY_INVALID: not decryptable, not ours, wrong purpose, wrong session, incomplete.
 * - CAPABILITY_STALE: authentic but no longer current (expired, other state version or batch,
 *   minted under another line `policyRevision`).
 * - CAPABILITY_REPLAYED: authentic and current, but already spent by a different request.
 */
export type CapabilityErrorCode = "CAPABILITY_INVALID" | "CAPABILITY_STALE" | "CAPABILITY_REPLAYED";

/**
 * Why a check failed. Meant for logs and tests only: the wire carries the code alone, so a
 * caller cannot learn which part of a forged token was wrong.
 */
export type CapabilityFailureReason =
  | "malformed"
  | "unknown-kid"
  | "decrypt"
  | "incomplete"
  | "purpose"
  | "session"
  | "expired"
  | "state-version"
  | "batch"
  | "policy-revision"
  | "replayed";

/** A capability or option payload was refused. */
export class CapabilityError extends Error {
  override name = "CapabilityError";
  constructor(
    readonly code: CapabilityErrorCode,
    readonly reason: CapabilityFailureReason,
  ) {
    super(`${code} (${reason})`);
  }
}

/** Shorthand for the most common refusal. */
export function invalid(reason: CapabilityFailureReason): CapabilityError {
  return new CapabilityError("CAPABILITY_INVALID", reason);
}

/** Shorthand for an authentic but outdated token. */
export function stale(reason: CapabilityFailureReason): CapabilityError {
  return new CapabilityError("CAPABILITY_STALE", reason);
}

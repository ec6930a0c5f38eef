import { randomId } from "../random-pool.js";
import { CapabilityError, invalid, stale } from "./capability-error.js";
import {
  assertComplete,
  purposeBinding,
  type ClaimData,
  type Claims,
  type Purpose,
} from "./claims.js";
import type { Keyring } from "./keyring.js";
import { sameFingerprint, sessionFingerprint } from "./session-fingerprint.js";
import { open, seal, type TokenPrefix } from "./token-codec.js";

/** What the server states when it issues a token. */
export interface MintRequest {
  purpose: Purpose;
  /** Raw session id; only its keyed fingerprint enters the token. */
  learningSessionId: string;
  /** The line's `policyRevision` at mint time. */
  policyRevision: number;
  expiresAt: Date;
  /** Required for purposes bound to a state version (assessment, option). */
  stateVersion?: number;
  /** Required for purposes bound to a batch (batch, grading, practice). */
  batchId?: string;
  data?: ClaimData;
}

/** What the server knows when a token comes back. */
export interface Expectation {
  purpose: Purpose;
  learningSessionId: string;
  /** The line's current `policyRevision`. */
  policyRevision: number;
  /** The clock reading of this request (no clock inside this module). */
  now: Date;
  /** The current state version, for purposes bound to one. */
  stateVersion?: number;
  /** The currently open batch or deck, for purposes bound to one. */
  batchId?: string;
  /**
   * The binding is checked later, with `assertBound`, against state read inside the write
   * transaction (so the caller need not read it twice); the other checks run now.
   */
  deferBinding?: true;
}

/** The current binding a token is checked against: a state version or a batch/deck id. */
export type Binding = { stateVersion: number } | { batchId: string };

/** Seal claims for `request` as a `<prefix>.…` token. */
export function mintToken(keyring: Keyring, prefix: TokenPrefix, request: MintRequest): string {
  const claims: Claims = {
    v: 1,
    p: request.purpose,
    sfp: sessionFingerprint(keyring, keyring.activeKid, request.learningSessionId),
    ...(request.stateVersion !== undefined && { sv: request.stateVersion }),
    ...(request.batchId !== undefined && { bid: request.batchId }),
    pr: request.policyRevision,
    exp: request.expiresAt.getTime(),
    jti: randomId(16),
    ...(request.data !== undefined && { d: request.data }),
  };
  try {
    assertComplete(claims);
  } catch (error) {
    // A mint that would not verify is a programming error in the caller, not a token problem.
    if (error instanceof CapabilityError)
      throw new TypeError(
        `cannot mint ${request.purpose} token: claims incomplete or binding missing`,
      );
    throw error;
  }
  return seal(keyring, prefix, request.purpose, Buffer.from(JSON.stringify(claims), "utf8"));
}

/**
 * Decrypt → complete → same session → not stale. Throws CapabilityError; the replay check,
 * which needs storage, is layered on top by `verifyCapability`.
 */
export function openToken(
  keyring: Keyring,
  prefix: TokenPrefix,
  token: string,
  expect: Expectation,
): Claims {
  const binding = purposeBinding[expect.purpose];
  if (!expect.deferBinding && expect[binding] === undefined)
    throw new TypeError(`verifying a ${expect.purpose} token needs the current ${binding}`);

  const { kid, plaintext } = open(keyring, prefix, expect.purpose, token);
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext.toString("utf8"));
  } catch {
    throw invalid("incomplete");
  }
  const claims = assertComplete(parsed);
  if (claims.p !== expect.purpose) throw invalid("purpose");
  if (!sameFingerprint(claims.sfp, sessionFingerprint(keyring, kid, expect.learningSessionId)))
    throw invalid("session");

  if (expect.now.getTime() >= claims.exp) throw stale("expired");
  if (claims.pr !== expect.policyRevision) throw stale("policy-revision");
  if (!expect.deferBinding) assertBound(claims, expect as Binding);
  return claims;
}

/** The last staleness check: the token is bound to the current state version or batch. */
export function assertBound(claims: Claims, current: Binding): void {
  const binding = purposeBinding[claims.p];
  if (
    binding === "stateVersion" &&
    claims.sv !== (current as { stateVersion?: number }).stateVersion
  )
    throw stale("state-version");
  if (binding === "batchId" && claims.bid !== (current as { batchId?: string }).batchId)
    throw stale("batch");
}

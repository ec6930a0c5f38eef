import type { ClaimData } from "./claims.js";
import type { Keyring } from "./keyring.js";
import { mintToken, openToken } from "./sealed-claims.js";

/** An option as the server publishes it in a full context (C14). */
export interface OptionMintRequest {
  learningSessionId: string;
  /** The state version the option set belongs to; any write makes it stale. */
  stateVersion: number;
  policyRevision: number;
  expiresAt: Date;
  /** The structured choice, e.g. `{ kind: "focus-skill", skillId: "algebra" }`. */
  choice: ClaimData;
}

/** Seal a choice as an opaque `opt1.<kid>.<sealed>` payload, bound to the state version. */
export function mintOptionPayload(keyring: Keyring, request: OptionMintRequest): string {
  const { choice, ...rest } = request;
  return mintToken(keyring, "opt1", { ...rest, purpose: "option", data: choice });
}

/** What the server knows when an option comes back. */
export interface OptionExpectation {
  learningSessionId: string;
  stateVersion: number;
  policyRevision: number;
  now: Date;
}

/**
 * Recover the choice from a payload copied verbatim by the model. Tampered, foreign or
 * outdated payloads fail like capabilities (CAPABILITY_INVALID / CAPABILITY_STALE).
 */
export function openOptionPayload(
  keyring: Keyring,
  payload: string,
  expect: OptionExpectation,
): ClaimData {
  return openToken(keyring, "opt1", payload, { ...expect, purpose: "option" }).d ?? {};
}

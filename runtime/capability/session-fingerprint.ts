import { createHmac, timingSafeEqual } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Keyring } from "./keyring.js";

/** 128 bits: enough to make a collision between two sessions irrelevant. */
const FINGERPRINT_BYTES = 16;
/**
 * Sessions whose fingerprints stay memoized per keyring (each recent session is fingerprinted on
 * every mint and open).
 */
const MEMO_SESSIONS = 4096;

/**
 * Per keyring: `kid NUL sessionId` → fingerprint. The HMAC is deterministic, so a memo hit is the
 * same value.
 */
const memo = new WeakMap<Keyring, LRUCache<string, string>>();

/**
 * Keyed fingerprint of a learning session id under one kid. Tokens carry this instead of the
 * session id, so even a leaked key-less token dump names no session; and because it is keyed
 * per kid, fingerprints from different keyrings cannot be correlated.
 */
export function sessionFingerprint(
  keyring: Keyring,
  kid: string,
  learningSessionId: string,
): string {
  let fingerprints = memo.get(keyring);
  if (!fingerprints) {
    fingerprints = new LRUCache({ max: MEMO_SESSIONS });
    memo.set(keyring, fingerprints);
  }
  const key = `${kid}\u0000${learningSessionId}`;
  let fingerprint = fingerprints.get(key);
  if (fingerprint === undefined) {
    fingerprint = createHmac("sha256", keyring.derive(kid, "session-fingerprint"))
      .update(learningSessionId, "utf8")
      .digest()
      .subarray(0, FINGERPRINT_BYTES)
      .toString("base64url");
    fingerprints.set(key, fingerprint);
  }
  return fingerprint;
}

/** Constant-time comparison of two fingerprints. */
export function sameFingerprint(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

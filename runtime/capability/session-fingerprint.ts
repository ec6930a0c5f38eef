import { createHmac, timingSafeEqual } from "node:crypto";
import type { Keyring } from "./keyring.js";

/** 128 bits: enough to make a collision between two sessions irrelevant. */
const FINGERPRINT_BYTES = 16;

/**
 * Keyed fingerprint of a learning session id under one kid. Tokens carry this instead of the
 * session id, so even a leaked key-less token dump names no session; and because it is keyed
 * per kid, fingerprints from different keyrings cannot be correlated.
 */
export function sessionFingerprint(keyring: Keyring, kid: string, learningSessionId: string): string {
  return createHmac("sha256", keyring.derive(kid, "session-fingerprint"))
    .update(learningSessionId, "utf8")
    .digest()
    .subarray(0, FINGERPRINT_BYTES)
    .toString("base64url");
}

/** Constant-time comparison of two fingerprints. */
export function sameFingerprint(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

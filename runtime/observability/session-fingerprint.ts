import { createHmac } from "node:crypto";

/** Hex characters kept of the HMAC: enough to correlate one session's lines, too few to matter. */
const FINGERPRINT_HEX_CHARS = 16;

/**
 * The only form in which a learning session id may appear in logs (L13): a truncated
 * HMAC-SHA-256 under a server secret, so the id cannot be recovered or guessed from logs.
 */
export function logFingerprint(key: string, learningSessionId: string): string {
  return createHmac("sha256", Buffer.from(key, "base64url")).update(learningSessionId, "utf8").digest("hex").slice(0, FINGERPRINT_HEX_CHARS);
}

import { createHmac } from "node:crypto";
import { LRUCache } from "lru-cache";

/** Hex characters kept of the HMAC: enough to correlate one session's lines, too few to matter. */
const FINGERPRINT_HEX_CHARS = 16;
/** Sessions whose log fingerprints stay memoized per key: every call of a session logs one. */
const MEMO_SESSIONS = 4096;

/**
 * Per log key (base64url text): the decoded key and the memoized fingerprints (deterministic, so a
 * hit is the same value). A server uses one key; a few slots cover tests that start several.
 */
const memo = new LRUCache<string, { key: Buffer; fingerprints: LRUCache<string, string> }>({
  max: 8,
});

/**
 * The only form in which a learning session id may appear in logs (L13): a truncated
 * HMAC-SHA-256 under a server secret, so the id cannot be recovered or guessed from logs.
 */
export function logFingerprint(key: string, learningSessionId: string): string {
  let entry = memo.get(key);
  if (!entry) {
    entry = {
      key: Buffer.from(key, "base64url"),
      fingerprints: new LRUCache({ max: MEMO_SESSIONS }),
    };
    memo.set(key, entry);
  }
  let fingerprint = entry.fingerprints.get(learningSessionId);
  if (fingerprint === undefined) {
    fingerprint = createHmac("sha256", entry.key)
      .update(learningSessionId, "utf8")
      .digest("hex")
      .slice(0, FINGERPRINT_HEX_CHARS);
    entry.fingerprints.set(learningSessionId, fingerprint);
  }
  return fingerprint;
}

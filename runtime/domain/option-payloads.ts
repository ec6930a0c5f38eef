import { LRUCache } from "lru-cache";
import { type Keyring, mintOptionPayload } from "../capability/index.js";
import type { ClaimData } from "../capability/index.js";

/** How long a minted option payload is valid (its `exp`). */
export const OPTION_LIFETIME_MS = 3600_000;
/** A payload is reused only while at least half its lifetime is left. */
const REUSE_MS = OPTION_LIFETIME_MS / 2;

interface Minted {
  payload: string;
  reuseUntil: number;
}

const perKeyring = new WeakMap<Keyring, LRUCache<string, Minted>>();

/**
 * The sealed payload of one option of a session at one state version. An option payload is not
 * single-use: it is bound to the session, the state version and the policy revision, and any write
 * makes it stale. So a context read at an unchanged state hands out the payloads minted for the
 * previous read (while half their lifetime remains) instead of sealing three new ones: the same
 * choices, the same authority, one AES-GCM seal per option per state instead of per read.
 */
export function optionPayload(
  keyring: Keyring,
  request: {
    learningSessionId: string;
    stateVersion: number;
    policyRevision: number;
    now: Date;
    choice: ClaimData;
  },
): string {
  let cache = perKeyring.get(keyring);
  if (!cache) {
    cache = new LRUCache({ max: 30_000 });
    perKeyring.set(keyring, cache);
  }
  const { learningSessionId, stateVersion, policyRevision, now, choice } = request;
  const key =
    `${keyring.activeKid}\u0000${learningSessionId}\u0000${stateVersion}\u0000` +
    `${policyRevision}\u0000${JSON.stringify(choice)}`;
  const at = now.getTime();
  const hit = cache.get(key);
  if (hit && at < hit.reuseUntil) return hit.payload;
  const payload = mintOptionPayload(keyring, {
    learningSessionId,
    stateVersion,
    policyRevision,
    expiresAt: new Date(at + OPTION_LIFETIME_MS),
    choice,
  });
  cache.set(key, { payload, reuseUntil: at + REUSE_MS });
  return payload;
}

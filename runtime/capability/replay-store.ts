/**
 * Outcome of spending a token id:
 * - `fresh`: first use; the token is now spent by this request.
 * - `repeat`: already spent by the *same* request (same `use` key) — an exact retry, which the
 *   idempotency layer answers with the stored response.
 * - `replayed`: already spent by a different request.
 */
export type ReplayVerdict = "fresh" | "repeat" | "replayed";

/**
 * Where spent token ids live. The runtime implements it in the database, inside the write
 * transaction, so a spend and the effect it authorizes commit together; entries may be purged
 * once `expiresAt` has passed, because an expired token fails the staleness check first.
 */
export interface ReplayStore {
  /**
   * Atomically record that token `jti` is spent by the request identified by `use`
   * (e.g. a hash of the canonical validated input), and report whether it was already spent.
   */
  spend(jti: string, use: string, expiresAt: Date): ReplayVerdict | Promise<ReplayVerdict>;
}

/** Process-local replay store for tests and single-process tools. */
export class MemoryReplayStore implements ReplayStore {
  private readonly spent = new Map<string, { use: string; expiresAt: number }>();

  spend(jti: string, use: string, expiresAt: Date): ReplayVerdict {
    const seen = this.spent.get(jti);
    if (!seen) {
      this.spent.set(jti, { use, expiresAt: expiresAt.getTime() });
      return "fresh";
    }
    return seen.use === use ? "repeat" : "replayed";
  }

  /** Forget entries that expired before `now`; returns how many were dropped. */
  prune(now: Date): number {
    let dropped = 0;
    for (const [jti, entry] of this.spent)
      if (entry.expiresAt <= now.getTime()) {
        this.spent.delete(jti);
        dropped += 1;
      }
    return dropped;
  }

  /** Number of remembered token ids. */
  get size(): number {
    return this.spent.size;
  }
}

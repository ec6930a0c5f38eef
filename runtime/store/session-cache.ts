import { LRUCache } from "lru-cache";
import type { SessionRecord } from "../domain/ports/coach-store.js";

/**
 * Sessions are immutable once launched (pinned versions, subject, expiry never change, rows are
 * never updated or deleted), so a found session can be kept in memory: every call of a session
 * after the first skips the database read. Unknown ids are not cached (a launch on another
 * instance may create them at any moment).
 */
export class SessionCache {
  private readonly cache = new LRUCache<string, SessionRecord>({ max: 20_000 });

  async find(
    sessionId: string,
    load: () => Promise<SessionRecord | undefined>,
  ): Promise<SessionRecord | undefined> {
    const hit = this.cache.get(sessionId);
    if (hit) return hit;
    const found = await load();
    if (found) this.cache.set(sessionId, Object.freeze(found));
    return found;
  }
}

import { LRUCache } from "lru-cache";

/**
 * The generation of the client policy an instance serves under: it moves whenever what makes a
 * verified token acceptable may have changed (fresh authorization required of a client, the
 * database's policy no longer this instance's), and a verification from another generation is
 * never used again.
 */
export class PolicyGeneration {
  private value = 0;

  /** The generation now. */
  current(): number {
    return this.value;
  }

  /** The policy changed: every verification made so far is forgotten. */
  advance(): void {
    this.value++;
  }
}

/** What the cache is bounded by. */
export interface VerifiedTokenCacheOptions {
  /** How many verifications are kept at most; the least recently used one goes first. */
  maxEntries: number;
  /** How long one is kept at most, in seconds (unset: until its token's `exp`). */
  maxAgeSeconds?: number;
  /** The client policy's generation (unset: one that never moves). */
  generation?: PolicyGeneration;
  /** Epoch seconds now (tests move it). */
  now?: () => number;
}

interface Entry<T> {
  value: T;
  generation: number;
}

/**
 * Verified access tokens remembered so that a token's next request skips the signature check (or
 * the introspection round trip): bounded in size (least recently used out), and an entry is used
 * only while its token's `exp` is still ahead — never at or past it, whatever clock skew a full
 * verification would allow — and only under the client policy generation it was verified in. A
 * miss is a full verification again; the cache never answers for a token it did not see verified.
 */
export class VerifiedTokenCache<T extends { expiresAt: number }> {
  private readonly entries: LRUCache<string, Entry<T>>;
  private readonly generation: PolicyGeneration;
  private readonly now: () => number;

  constructor(private readonly options: VerifiedTokenCacheOptions) {
    this.entries = new LRUCache({ max: options.maxEntries });
    this.generation = options.generation ?? new PolicyGeneration();
    this.now = options.now ?? (() => Date.now() / 1000);
  }

  /** The generation a verification starting now runs under: pass it to `set` once verified. */
  currentGeneration(): number {
    return this.generation.current();
  }

  /** The verification remembered under `key`, if it may still be used now. */
  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== this.generation.current() || entry.value.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Remember a verification made under `generation` (read before it started: a policy change while
   * it ran makes it stale at once). Nothing is kept for a token at or past its `exp`.
   */
  set(key: string, value: T, generation: number): void {
    const left = Math.min(value.expiresAt - this.now(), this.options.maxAgeSeconds ?? Infinity);
    if (!(left > 0) || generation !== this.generation.current()) return;
    this.entries.set(key, { value, generation }, { ttl: Math.ceil(left * 1000) });
  }

  /** How many verifications are remembered. */
  get size(): number {
    return this.entries.size;
  }
}

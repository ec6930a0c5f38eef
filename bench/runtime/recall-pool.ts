/**
 * Due learners for a benchmark's Verified Recall rounds, one per round, minted as the run goes: a
 * recorded round moves its learner's items into the future, so how many learners a run uses
 * depends on how fast the server is. Before every stretch of load (a warm-up or a measured slice,
 * outside the measured time) `prepare` tops each client's queue up to what it can use in that
 * stretch at the fastest rate seen so far, with a margin; a client that still runs dry waits for a
 * top-up instead of failing, and `waited` counts those rounds so the report can say so.
 */
import type { RawMcpCaller } from "./raw-mcp-client.js";
import { type RecallSeeder, touchSessions } from "./recall-round.js";

/** Learners a top-up mints at least, per client that runs dry inside a stretch. */
const MIN_TOP_UP = 50;
/** How many times the fastest rate seen a stretch is topped up for. */
const MARGIN = 2;

/** One client's queue and what it took since the last `prepare`. */
interface ClientQueue {
  sessions: string[];
  taken: number;
  firstAt: number;
  lastAt: number;
}

/** Per-client pools of due learners, topped up between stretches of load. */
export class RecallPool {
  private readonly queues: ClientQueue[];
  /** The fastest rate one client took learners at (per second), over all stretches so far. */
  private peakRate = 0;
  /** Rounds that waited for learners inside a stretch (their latency includes the seeding). */
  waited = 0;

  /**
   * `mint(count)` seeds `count` learners with a due recall item (ready to call: token bound, first
   * call made) and returns their session ids; `initial` is each client's queue before any rate is
   * known (the first warm-up); `now` is the clock rates are measured with (ms).
   */
  constructor(
    private readonly mint: (count: number) => Promise<string[]>,
    clients: number,
    private readonly initial: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.queues = Array.from({ length: clients }, () => ({
      sessions: [],
      taken: 0,
      firstAt: 0,
      lastAt: 0,
    }));
  }

  /** Client `client`'s next learner: from its queue, or after a top-up when the queue ran dry. */
  next(client: number): () => string | Promise<string> {
    const q = this.queues[client];
    return () => {
      const now = this.now();
      if (q.taken++ === 0) q.firstAt = now;
      q.lastAt = now;
      const id = q.sessions.pop();
      if (id !== undefined) return id;
      this.waited++;
      return this.mint(Math.max(MIN_TOP_UP, Math.ceil(this.initial / 4))).then((ids) => {
        const [first, ...rest] = ids;
        q.sessions.push(...rest);
        return first;
      });
    };
  }

  /** Top every client up to what it can use in `seconds` of load (call outside measured time). */
  async prepare(seconds: number): Promise<void> {
    for (const q of this.queues) {
      const span = (q.lastAt - q.firstAt) / 1000;
      if (q.taken > 1 && span > 0) this.peakRate = Math.max(this.peakRate, (q.taken - 1) / span);
      q.taken = 0;
    }
    const need =
      this.peakRate > 0 ? Math.ceil(this.peakRate * seconds * MARGIN) + MIN_TOP_UP : this.initial;
    const missing = this.queues.map((q) => Math.max(0, need - q.sessions.length));
    const total = missing.reduce((a, b) => a + b, 0);
    if (total === 0) return;
    const ids = await this.mint(total);
    let at = 0;
    for (const [i, q] of this.queues.entries()) {
      q.sessions.push(...ids.slice(at, at + missing[i]));
      at += missing[i];
    }
  }
}

/**
 * A pool whose learners `seeder` mints on the server's database: each one's token bound (`bind`)
 * and one context read made through `callers` (as `touchSessions` explains), all before its round.
 */
export function seededRecallPool(
  seeder: RecallSeeder,
  bind: (sessionId: string, learner: string) => Promise<void>,
  callers: readonly RawMcpCaller[],
  clients: number,
  initial: number,
): RecallPool {
  const mint = async (count: number) => {
    const seeded = await seeder.seed(count);
    for (const s of seeded) await bind(s.sessionId, s.learner);
    const ids = seeded.map((s) => s.sessionId);
    await touchSessions(callers, ids, clients);
    return ids;
  };
  return new RecallPool(mint, clients, initial);
}

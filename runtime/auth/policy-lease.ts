import { performance } from "node:perf_hooks";
import { HEARTBEAT_MS, INSTANCE_LIVE_MS } from "./client-policy.js";

/**
 * How long a confirmed heartbeat lets this instance serve tokens without asking the database again.
 * Another instance can take over only once this one's heartbeat is `INSTANCE_LIVE_MS` old on the
 * database's clock, and that heartbeat was written after it was sent: so within `INSTANCE_LIVE_MS`
 * of sending a confirmed heartbeat (by this process's monotonic clock, which keeps running while
 * the process is stopped) nobody has taken over. The lease ends one heartbeat period earlier, a
 * margin for the two clocks' rates.
 */
export const POLICY_LEASE_MS = INSTANCE_LIVE_MS - HEARTBEAT_MS;

/**
 * The client policy this instance activated, as a lease (L14): every request with a token asks
 * `current()`, which answers from memory while the last confirmed heartbeat is younger than the
 * lease — no database read on the call path — and otherwise runs one heartbeat and waits for it (a
 * process that was frozen, or whose heartbeats stalled, learns first whether another instance took
 * over meanwhile, instead of serving a retired client's token once more). A heartbeat that finds
 * another policy ends the lease for good and calls `onLost`.
 */
export class PolicyLease {
  private confirmedAt: number;
  private renewal: Promise<boolean> | undefined;
  private lost = false;

  constructor(
    /** One heartbeat: true while the database still records this instance's policy. */
    private readonly heartbeat: () => Promise<boolean>,
    private readonly onLost: () => void,
    /** When the activation that started the lease was sent (monotonic ms). */
    startedAt: number,
    private readonly clock: () => number = () => performance.now(),
    private readonly leaseMs = POLICY_LEASE_MS,
  ) {
    this.confirmedAt = startedAt;
  }

  /** A monotonic timestamp, to pass as `startedAt` before the activation is sent. */
  static now(): number {
    return performance.now();
  }

  /** Run one heartbeat now (shared by concurrent callers); resolves whether the policy holds. */
  renew(): Promise<boolean> {
    this.renewal ??= (async () => {
      const sentAt = this.clock();
      try {
        const holds = await this.heartbeat();
        if (holds) this.confirmedAt = Math.max(this.confirmedAt, sentAt);
        else if (!this.lost) {
          this.lost = true;
          this.onLost();
        }
        return holds;
      } finally {
        this.renewal = undefined;
      }
    })();
    return this.renewal;
  }

  /**
   * Whether this instance may serve a request with a token now: `true` at once while the lease
   * holds; otherwise after one heartbeat (a failing heartbeat counts as no).
   */
  current(): boolean | Promise<boolean> {
    if (this.lost) return false;
    if (this.clock() - this.confirmedAt < this.leaseMs) return true;
    return this.renew().catch(() => false);
  }
}

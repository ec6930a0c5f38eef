import { closeSync, fdatasync, fsyncSync, openSync } from "node:fs";
import path from "node:path";

/**
 * The durable half of a SQLite commit, off the event loop. The writer runs with
 * `synchronous=NORMAL`: its COMMIT writes the transaction's frames to the WAL file (write(2), in
 * the operating system's cache) but does not wait for the disk; `synchronous=FULL` would add one
 * fdatasync of the WAL file inside COMMIT, blocking the event loop for as long as the disk takes.
 * This does that same fdatasync of the same file in libuv's thread pool instead, and the store
 * answers no write before it completed: acknowledged still means on disk. Syncs do not overlap:
 * commits made while one runs share the next one, so under load one fdatasync covers several
 * group commits.
 *
 * Checkpoints are unchanged: SQLite syncs the WAL and then the database file itself whenever it
 * copies frames back (synchronous=NORMAL and FULL do the same there).
 */
export class WalSync {
  private fd: number | undefined;
  /** Commits announced so far, and how many of them the last completed sync covered. */
  private committed = 0;
  private synced = 0;
  private running = false;
  private waiting: { upTo: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** A failed sync: what was committed may not be on disk, so nothing is acknowledged again. */
  private failure: unknown;

  constructor(private readonly databaseFile: string) {}

  /** Resolves once everything committed before this call is on disk. */
  afterCommit(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const upTo = ++this.committed;
    return new Promise((resolve, reject) => {
      this.waiting.push({ upTo, resolve, reject });
      this.next();
    });
  }

  /** Whether a sync failed (the store then refuses every later write). */
  get failed(): unknown {
    return this.failure;
  }

  private open(): number {
    if (this.fd === undefined) {
      this.fd = openSync(`${this.databaseFile}-wal`, "r+");
      // The WAL file was created under synchronous=NORMAL: make its directory entry durable too.
      const dir = openSync(path.dirname(this.databaseFile), "r");
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    }
    return this.fd;
  }

  private next(): void {
    if (this.running || this.synced === this.committed) return;
    this.running = true;
    const upTo = this.committed;
    let fd: number;
    try {
      fd = this.open();
    } catch (error) {
      this.settle(upTo, error);
      return;
    }
    fdatasync(fd, (error) => this.settle(upTo, error ?? undefined));
  }

  private settle(upTo: number, error: unknown): void {
    this.running = false;
    if (error !== undefined) {
      this.failure = error;
      for (const w of this.waiting) w.reject(error);
      this.waiting = [];
      return;
    }
    this.synced = upTo;
    const covered = this.waiting.filter((w) => w.upTo <= upTo);
    this.waiting = this.waiting.filter((w) => w.upTo > upTo);
    for (const w of covered) w.resolve();
    this.next();
  }

  /** Wait for the syncs still running, then release the file. */
  async close(): Promise<void> {
    if (this.committed > this.synced && this.failure === undefined)
      await new Promise<void>((resolve, reject) =>
        this.waiting.push({ upTo: this.committed, resolve, reject }),
      ).catch(() => undefined);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

import { readFileSync } from "node:fs";

/**
 * Waiting for a quiet machine between a benchmark's slices. Work a scenario leaves behind when its
 * load stops (a batch of spans still to export, PostgreSQL's checkpointer and WAL writer, a
 * collection of the garbage it made) otherwise runs during the next slice, on the same two cores:
 * the next scenario's server then gets fewer requests per event-loop turn and pays more CPU per
 * call for work that is not its own; and the slice's own leftovers would go uncounted. (The larger
 * noise on this machine, stretches where every call needs twice the CPU, is what paired-slices.ts
 * is for.)
 */

/** How a run's waits went: how many there were and how many gave up at the cap. */
export const quietWaits = { waits: 0, capped: 0 };

/** Busy and total clock ticks of all CPUs so far, from /proc/stat; undefined without /proc. */
function cpuTicks(): { busy: number; total: number } | undefined {
  let line: string;
  try {
    line = readFileSync("/proc/stat", "utf8").slice(0, 256).split("\n")[0];
  } catch {
    return undefined;
  }
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/**
 * Resolve once the whole machine has been quiet (busy at most `busyShare` of its CPU time) for one
 * `windowMs` window, or after `capMs` (counted in `quietWaits.capped`); at once where /proc is
 * missing. Resolves whether the machine went quiet.
 */
export async function untilQuiet(capMs = 3000, windowMs = 100, busyShare = 0.05): Promise<boolean> {
  quietWaits.waits++;
  const giveUpAt = performance.now() + capMs;
  let before = cpuTicks();
  if (!before) return true;
  while (performance.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = cpuTicks()!;
    const total = after.total - before.total;
    if (total > 0 && (after.busy - before.busy) / total <= busyShare) return true;
    before = after;
  }
  quietWaits.capped++;
  return false;
}

import { cpuOf, drive, type Measurement } from "./load-driver.js";
import { untilQuiet } from "./machine-quiet.js";
import type { Scenario } from "./interleave.js";

/**
 * One slice of a group of scenarios compared with each other (the direct call and the same call
 * served through an adapter; a traced server and its untraced twin; today's code and the base's),
 * measured in short alternating parts instead of one after the other.
 *
 * Why: on this shared two-core machine, the CPU a server needs per call doubles for seconds at a
 * time (the host's other load: the same server, the same calls, half the throughput at the same
 * CPU). Slices of 1.5 s one after the other then land in fast and slow stretches at random, and a
 * difference of a few percent between two scenarios drowns; parts of a few hundred ms, taken in
 * turn (A B B A A B …), share every stretch.
 *
 * CPU accounting: every CPU reading of a server process (and of a database server) between two
 * checkpoints is charged to the member that last ran measured calls on it, except what it used
 * during a member's unmeasured re-warm-up, which is charged to no one. So what a member's calls
 * leave behind — an export on a timer, a collection — is its own, whether its process is its own
 * or shared with the other members.
 *
 * Warm-up: a group's servers sit idle while the other scenarios run (tens of seconds), and an idle
 * Node server is not warm when its load comes back (V8 collects and ages code while idle: its first
 * seconds cost up to half as much again per call). Each member therefore runs `warmMs` of unmeasured
 * calls before the first part, charged to no one, so the parts compare warm servers, as the short
 * re-warm-up before each later part keeps them.
 */
export async function measureGroup(
  members: readonly Scenario[],
  sliceSeconds: number,
  rewarmMs: number,
  parts: number,
  /** What the group waits for before its first part and after its last: a quiet machine. */
  quiet: () => Promise<unknown> = untilQuiet,
  /** Unmeasured calls of each member before the first part (ms). */
  warmMs = 0,
): Promise<Map<string, Measurement>> {
  const partSeconds = sliceSeconds / parts;
  const partRewarmMs = Math.min(rewarmMs, 50);
  /** A CPU counter of a server process or of the database server, and who it is charged to. */
  type Meter = {
    read: () => number | undefined;
    database: boolean;
    last?: number;
    runner?: string;
  };
  const meters = new Map<unknown, Meter>();
  const metersOf = new Map<Scenario, Meter[]>();
  const meter = (key: unknown, read: () => number | undefined, database: boolean) => {
    if (!meters.has(key)) meters.set(key, { read, database });
    return meters.get(key)!;
  };
  for (const m of members)
    metersOf.set(m, [
      ...m.pids.map((pid) => meter(pid, () => cpuOf([pid]), false)),
      ...(m.databaseCpu ? [meter(m.databaseCpu, m.databaseCpu, true)] : []),
    ]);
  const out = new Map(
    members.map((m) => [
      m.name,
      { latencies: [] as number[], errors: 0, seconds: 0, serverCpuMs: 0, databaseCpuMs: 0 },
    ]),
  );
  /** Read every meter; charge what it used since its last reading to its last runner, if any. */
  const checkpoint = (charge: boolean) => {
    for (const meter of meters.values()) {
      const now = meter.read();
      if (now === undefined) continue;
      if (charge && meter.last !== undefined && meter.runner !== undefined) {
        const m = out.get(meter.runner)!;
        if (meter.database) m.databaseCpuMs += now - meter.last;
        else m.serverCpuMs += now - meter.last;
      }
      meter.last = now;
    }
  };
  if (warmMs > 0)
    for (const m of members) {
      await m.prepare?.(warmMs / 1000);
      await drive(m.calls, 0, warmMs);
    }
  await quiet();
  checkpoint(false);
  for (let part = 0; part < parts; part++) {
    const order = part % 2 === 0 ? members : [...members].reverse();
    for (const m of order) {
      await m.prepare?.(partSeconds + partRewarmMs / 1000);
      checkpoint(true);
      await drive(m.calls, 0, partRewarmMs);
      checkpoint(false);
      for (const own of metersOf.get(m)!) own.runner = m.name;
      const measured = await drive(m.calls, partSeconds, 0);
      checkpoint(true);
      const total = out.get(m.name)!;
      for (const latency of measured.latencies) total.latencies.push(latency);
      total.errors += measured.errors;
      total.seconds += measured.seconds;
    }
  }
  // The members' own waits where they have them (a traced server's last export), else quiet.
  const settles = members.flatMap((m) => (m.settle ? [m.settle] : []));
  if (settles.length === 0) await quiet();
  for (const settle of settles) await settle();
  checkpoint(true);
  return new Map(
    members.map((m) => {
      const { databaseCpuMs, ...rest } = out.get(m.name)!;
      return [m.name, m.databaseCpu ? { ...rest, databaseCpuMs } : rest];
    }),
  );
}

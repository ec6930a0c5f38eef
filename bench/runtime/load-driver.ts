import { processCpuMs } from "./server-process.js";

/** One client's next call (or round); resolves whether it succeeded. */
export type Call = () => Promise<boolean>;

/** What a measured stretch of load produced. */
export interface Measurement {
  /** Every completed unit's latency, ms. */
  latencies: number[];
  errors: number;
  seconds: number;
  /** Server CPU used meanwhile (ms), from /proc; undefined without a pid or /proc. */
  serverCpuMs?: number;
  /** The database server's CPU used meanwhile (ms), for a scenario on one. */
  databaseCpuMs?: number;
}

/** A scenario's figures, from one or more measurements. */
export interface Result {
  name: string;
  /** What one unit of `perSecond` is: "calls" unless a scenario says otherwise. */
  unit?: string;
  calls: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Server CPU time per unit (ms). */
  serverCpuMs?: number;
  /** The database server's CPU time per unit (ms), for a scenario on one. */
  databaseCpuMs?: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** CPU time of every process in `pids` together (ms); undefined when one cannot be read. */
export function cpuOf(pids: readonly (number | undefined)[]): number | undefined {
  let sum = 0;
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms === undefined) return undefined;
    sum += ms;
  }
  return sum;
}

/**
 * Run every client's call in a loop for `seconds` (after `warmupMs` of unmeasured calls, so JIT and
 * caches settle) and measure latencies and the server processes' CPU time (summed, when a scenario
 * spreads its calls over several), and with `databaseCpu` (CPU ms used so far) the database's.
 * With `settle`, it is awaited before the calls start and again before the CPU is read at the end:
 * the measured stretch then starts on a machine its predecessor's leftover work has left, and the
 * work the calls leave behind in the measured processes (an export, a collection) is charged to
 * them; the elapsed time excludes the waits.
 */
export async function drive(
  calls: Call[],
  seconds: number,
  warmupMs: number,
  serverPid?: number | readonly (number | undefined)[],
  databaseCpu?: () => number | undefined,
  settle?: () => Promise<unknown>,
): Promise<Measurement> {
  await settle?.();
  const pids =
    serverPid === undefined ? [] : typeof serverPid === "number" ? [serverPid] : serverPid;
  const warmEnd = performance.now() + warmupMs;
  await Promise.all(
    calls.map(async (call) => {
      while (performance.now() < warmEnd) await call();
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const cpuBefore = pids.length ? cpuOf(pids) : undefined;
  const databaseBefore = databaseCpu?.();
  await Promise.all(
    calls.map(async (call) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await call();
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  await settle?.();
  const cpuAfter = pids.length ? cpuOf(pids) : undefined;
  const databaseAfter = databaseCpu?.();
  return {
    latencies,
    errors,
    seconds: elapsed,
    serverCpuMs:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    ...(databaseBefore !== undefined &&
      databaseAfter !== undefined && { databaseCpuMs: databaseAfter - databaseBefore }),
  };
}

/** Sum measurements (e.g. the slices of an interleaved run) into one scenario result. */
export function summarize(name: string, parts: Measurement[], unit?: string): Result {
  const latencies = parts.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const seconds = parts.reduce((sum, p) => sum + p.seconds, 0);
  const cpu = parts.every((p) => p.serverCpuMs !== undefined)
    ? parts.reduce((sum, p) => sum + p.serverCpuMs!, 0)
    : undefined;
  const database = parts.every((p) => p.databaseCpuMs !== undefined)
    ? parts.reduce((sum, p) => sum + p.databaseCpuMs!, 0)
    : undefined;
  return {
    name,
    ...(unit && { unit }),
    calls: latencies.length,
    errors: parts.reduce((sum, p) => sum + p.errors, 0),
    perSecond: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    ...(cpu !== undefined && { serverCpuMs: cpu / latencies.length }),
    ...(database !== undefined && { databaseCpuMs: database / latencies.length }),
  };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

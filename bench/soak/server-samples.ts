import { processCpuMs, processRssBytes } from "../runtime/server-process.js";

/** One reading of the server process. */
export interface ServerSample {
  /** Measured calls made when it was taken. */
  calls: number;
  rssBytes: number;
  cpuMs: number;
}

/**
 * Read a server's resident memory and CPU time from /proc every `everyMs` while measuring (tagged
 * with the measured calls so far), so the report can give the CPU per call of any stretch of the
 * run and the memory's range.
 */
export function sampleServer(pid: number | undefined, calls: () => number, everyMs = 1000) {
  const samples: ServerSample[] = [];
  let timer: NodeJS.Timeout | undefined;
  /** One reading now (undefined where /proc is missing). */
  const read = (): ServerSample | undefined => {
    const rssBytes = processRssBytes(pid);
    const cpuMs = processCpuMs(pid);
    return rssBytes === undefined || cpuMs === undefined
      ? undefined
      : { calls: calls(), rssBytes, cpuMs };
  };
  const take = () => {
    const sample = read();
    if (sample) samples.push(sample);
    return sample;
  };
  return {
    samples,
    read,
    /** Take a sample now and then every `everyMs` until `stop`. */
    start() {
      take();
      timer = setInterval(take, everyMs);
      timer.unref();
    },
    /** Stop sampling, with a last sample taken now. */
    stop() {
      clearInterval(timer);
      return take();
    },
  };
}

/** Server CPU (ms) used between the samples nearest to measured calls `from` and `to`, per call. */
export function cpuPerCall(samples: readonly ServerSample[], from: number, to: number) {
  const at = (calls: number) => {
    // The last sample at or before `calls` (the first one at least: the measured start).
    let found = samples[0];
    for (const s of samples) if (s.calls <= calls) found = s;
    return found;
  };
  const a = at(from);
  const b = at(to);
  return b && a && b.calls > a.calls ? (b.cpuMs - a.cpuMs) / (b.calls - a.calls) : undefined;
}

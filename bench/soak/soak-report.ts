/** The soak benchmark's printed report: memory, schema compilations, drift, outcomes, writes. */
import type { WriteCheck } from "./lost-writes.js";
import { cpuPerCall, type ServerSample } from "./server-samples.js";

/** Growth of resident memory after the warm-up the soak accepts (5%). */
const RSS_GROWTH_TARGET = 0.05;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const verdict = (met: boolean) => (met ? "met" : "NOT MET");
const group = (n: number) => n.toLocaleString("en-US");

/** The server's memory at start, after the warm-up and at the end, with the growth verdict. */
export function memoryLines(
  start: number,
  warm: number,
  end: number,
  measured: readonly ServerSample[],
): string {
  const growth = end / warm - 1;
  const rss = measured.map((s) => s.rssBytes);
  return (
    `server RSS: ${mb(start)} at start, ${mb(warm)} after warm-up, ${mb(end)} at the end ` +
    `(lowest ${mb(Math.min(...rss, end))}, highest ${mb(Math.max(...rss, end))} while measured)\n` +
    `  growth after warm-up ${(growth * 100).toFixed(1)}%: target ≤ ${RSS_GROWTH_TARGET * 100}% ` +
    `${verdict(growth <= RSS_GROWTH_TARGET)}\n`
  );
}

/** Schema compilations read from /metrics at start, after the warm-up and at the end. */
export function compilationLines(start: number, warm: number, end: number): string {
  return (
    `schema compilations (/metrics): ${start} at start, ${warm - start} during warm-up, ` +
    `${end - warm} after warm-up: target 0 ${verdict(end === warm)}\n`
  );
}

const quantile = (sorted: Float32Array, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** p50/p99 latency and server CPU per call of the first against the last tenth of the run. */
export function driftLines(latencies: Float32Array, samples: readonly ServerSample[]): string {
  const n = latencies.length;
  const tenth = Math.max(1, Math.floor(n / 10));
  const first = latencies.slice(0, tenth).sort();
  const last = latencies.slice(n - tenth).sort();
  const row = (label: string, a: number, b: number, unit: string, digits = 2) =>
    `  ${label.padEnd(16)} ${a.toFixed(digits).padStart(8)} ${unit} → ${b.toFixed(digits).padStart(8)} ${unit}` +
    `   (×${(b / a).toFixed(2)})\n`;
  const cpuFirst = cpuPerCall(samples, 0, tenth);
  const cpuLast = cpuPerCall(samples, n - tenth, n);
  return (
    `drift, first tenth → last tenth of the measured calls (${group(tenth)} calls each):\n` +
    row("p50 latency", quantile(first, 0.5), quantile(last, 0.5), "ms") +
    row("p99 latency", quantile(first, 0.99), quantile(last, 0.99), "ms") +
    (cpuFirst === undefined || cpuLast === undefined
      ? ""
      : row("server CPU/call", cpuFirst, cpuLast, "ms", 3))
  );
}

/** Measured calls by tool and answer code. */
export function outcomeLines(outcomes: ReadonlyMap<string, ReadonlyMap<string, number>>): string {
  let out = "calls by tool (answer codes other than OK in brackets):\n";
  for (const [tool, codes] of [...outcomes].sort(([a], [b]) => a.localeCompare(b))) {
    const total = [...codes.values()].reduce((a, b) => a + b, 0);
    const other = [...codes].filter(([c]) => c !== "OK").map(([c, k]) => `${c} ${group(k)}`);
    out += `  ${tool.padEnd(42)} ${group(total).padStart(11)}${other.length ? `   (${other.join(", ")})` : ""}\n`;
  }
  return out;
}

/** The lost-writes verdict. */
export function writeLines(check: WriteCheck): string {
  const lost = check.lost.length + check.versionMismatches.length;
  let out =
    `lost writes: ${group(check.lost.length)} of ${group(check.answered)} writes answered as saved ` +
    `(each receipt looked up in the SQLite file with its session and state version; the receipts ` +
    `table holds ${group(check.rows)} rows); learner versions off: ${check.versionMismatches.length}` +
    `: target 0 ${verdict(lost === 0)}\n`;
  for (const line of [...check.lost, ...check.versionMismatches].slice(0, 20))
    out += `  lost: ${line}\n`;
  return out;
}

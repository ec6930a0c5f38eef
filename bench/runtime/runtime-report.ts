/**
 * What `bench:runtime` prints: the scenario table (every run's slices together) and the ratios
 * each run yields, whose medians and ranges over the runs decide the targets (ratio-summary.ts).
 * The targets live here, one literal each.
 */
import { type Measurement, median, type Result } from "./load-driver.js";
import { formatRatio, type Ratio, type RatioSummary } from "./ratio-summary.js";

type Out = (line?: string) => void;
const cpu = (x: Result | undefined) => x?.serverCpuMs ?? Number.NaN;

/** The scenario table: calls/s, p50/p99, server CPU per call and both ratios to the peer echo. */
export function printScenarioTable(results: Map<string, Result>, out: Out): void {
  const peer = results.get("peer")!;
  const unit = (x: Result) => x.unit ?? "calls";
  out(
    `${"scenario".padEnd(14)} ${"per s".padStart(8)} ${"p50 ms".padStart(7)} ` +
      `${"p99 ms".padStart(7)} ${"CPU ms".padStart(7)}  ${"vs peer: tput".padStart(13)} ` +
      `${"CPU".padStart(6)}   errors`,
  );
  for (const x of results.values())
    out(
      `${x.name.padEnd(14)} ${x.perSecond.toFixed(0).padStart(8)} ${x.p50.toFixed(2).padStart(7)} ` +
        `${x.p99.toFixed(2).padStart(7)} ${cpu(x).toFixed(3).padStart(7)}  ` +
        `${(x.perSecond / peer.perSecond).toFixed(2).padStart(12)}x ` +
        `${(cpu(x) / cpu(peer)).toFixed(2).padStart(5)}x   ${x.errors} (${x.calls} ${unit(x)})`,
    );
  out(
    "(CPU ms: server CPU per call, or per round of three calls; vs peer: ratio to the peer echo, " +
      "the SDK's documented stateless server)",
  );
}

/**
 * The PostgreSQL instance's server CPU per call against SQLite's (the database server's own CPU is
 * reported beside it, not in it).
 */
const postgresTargets = { context: 1.2, complete: 1.3, recall: 1.2 } as const;

/** The ratios of one run (its scenarios' results and slices). */
export function runtimeRatios(
  results: Map<string, Result>,
  slices: Map<string, Measurement[]>,
): Ratio[] {
  const r = (name: string) => results.get(name);
  const peer = r("peer");
  const vsPeer = (name: string) => cpu(r(name)) / cpu(peer);
  const tput = (name: string, per = "peer") => r(name)!.perSecond / r(per)!.perSecond;
  // Per round of the run: peer calls/s ÷ recall rounds/s, side by side; the median of those.
  const perSecond = (m: Measurement) => m.latencies.length / m.seconds;
  const peerSlices = slices.get("peer")!;
  const pairs = slices.get("recall")!.map((m, i) => perSecond(peerSlices[i]) / perSecond(m));
  const ratios: Ratio[] = [
    { label: "context, server CPU per call / peer echo", value: vsPeer("context"), target: 1.0 },
    { label: "context, throughput / peer echo", value: tput("context") },
    { label: "complete, server CPU per call / peer echo", value: vsPeer("complete"), target: 1.1 },
    { label: "complete, throughput / peer echo", value: tput("complete") },
    {
      label: "recall round, server CPU per round / peer echo call",
      value: vsPeer("recall"),
      target: 3.5,
    },
    { label: "recall round, peer calls/s / rounds/s (round median)", value: median(pairs) },
    ...(
      [
        ["Claude lane context / openai lane context, CPU", "context@claude"],
        ["mcp lane context / openai lane context, CPU", "context@mcp"],
      ] as const
    ).flatMap(([label, row]) => [
      { label, value: cpu(r(row)) / cpu(r("context")), goal: "within noise of 1.00" },
      { label: `${label.replace(/, CPU$/, "")}, throughput`, value: tput(row, "context") },
    ]),
    {
      label: "adapted call - direct call, server CPU / peer echo",
      value: vsPeer("adapted") - vsPeer("direct"),
      target: 0.15,
    },
    { label: "direct call (adapter server), CPU / peer echo", value: vsPeer("direct") },
    {
      label: "current definition tag sent (direct+tag - direct), CPU / peer echo",
      value: vsPeer("direct+tag") - vsPeer("direct"),
      target: 0.05,
    },
    {
      label: "held definition honoured (honoured - direct), CPU / peer echo",
      value: vsPeer("honoured") - vsPeer("direct"),
      target: 0.15,
    },
    { label: "our echo mount, CPU / peer echo", value: vsPeer("echo") },
    {
      label: "authentication (echo+auth - echo), CPU / peer echo",
      value: vsPeer("echo+auth") - vsPeer("echo"),
    },
    { label: "round floor (outputs replayed), CPU / peer echo", value: vsPeer("floor") },
    {
      label: "round domain work (round - floor), CPU / peer echo",
      value: vsPeer("recall") - vsPeer("floor"),
    },
  ];
  if (!results.has("pg1 complete")) return ratios;
  const database = (x: Result | undefined) => x?.databaseCpuMs ?? Number.NaN;
  for (const name of ["context", "complete", "recall"] as const)
    ratios.push(
      {
        label: `PostgreSQL ${name}, server CPU / SQLite's`,
        // Against the SQLite twin started like the instance where there is one (context,
        // complete); the recall round against the main server's.
        value: cpu(r(`pg1 ${name}`)) / cpu(r(`sq1 ${name}`) ?? r(name)),
        target: postgresTargets[name],
      },
      ...(r(`sq1 ${name}`)
        ? [
            {
              label: `PostgreSQL ${name}, server CPU / the main SQLite server's`,
              value: cpu(r(`pg1 ${name}`)) / cpu(r(name)),
            },
          ]
        : []),
      {
        label: `PostgreSQL ${name}, the database server's CPU / SQLite's server CPU`,
        value: database(r(`pg1 ${name}`)) / cpu(r(name)),
      },
      {
        label: `PostgreSQL ${name}, server + database CPU / SQLite's server CPU`,
        value: (cpu(r(`pg1 ${name}`)) + database(r(`pg1 ${name}`))) / cpu(r(name)),
      },
      { label: `PostgreSQL ${name}, throughput / SQLite's`, value: tput(`pg1 ${name}`, name) },
      {
        label: `PostgreSQL ${name}, two instances / one, throughput`,
        value: tput(`pg2 ${name}`, `pg1 ${name}`),
      },
    );
  return ratios;
}

/**
 * The PostgreSQL line: round trips per call as counted, and the database server's own CPU per call
 * over all runs (ms; not in the server CPU of the table, which is the instances').
 */
export function printPostgresLine(
  trips: { context: number; complete: number; recall: number },
  results: Map<string, Result>,
  out: Out,
): void {
  const ms = (name: string) => results.get(name)?.databaseCpuMs?.toFixed(3) ?? "n/a";
  out(
    `PostgreSQL round trips: context ${trips.context.toFixed(1)} per call, complete ` +
      `${trips.complete.toFixed(1)} per call, recall ${trips.recall.toFixed(1)} per round; ` +
      `the database server's own CPU (ms, not in the table): context ${ms("pg1 context")} per ` +
      `call, complete ${ms("pg1 complete")} per call, recall ${ms("pg1 recall")} per round`,
  );
}

/** The ratio lines, the ones with a target first. */
export function printRatios(summaries: readonly RatioSummary[], out: Out): void {
  const width = Math.max(...summaries.map((s) => s.label.length));
  const targeted = summaries.filter((s) => s.target !== undefined || s.goal !== undefined);
  for (const s of targeted) out(formatRatio(s, width));
  out("beside them (no target):");
  for (const s of summaries.filter((x) => !targeted.includes(x))) out(formatRatio(s, width));
}

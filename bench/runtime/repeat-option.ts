/**
 * The runtime benchmark's command line: `--repeat N` (or BENCH_REPEAT) runs N measured runs on the
 * same warm servers; `--help` says how to get a verdict. `npm run bench:runtime --repeat 3` (without
 * `--`) works too: npm keeps `--repeat` as its own config (npm_config_repeat, "true" or the value
 * given with `=`) and passes the 3 on. Bad input ends the process with a one-line message and exit
 * code 2, never a stack.
 */
import { parseArgs } from "node:util";

const HELP = `Usage: npm run bench:runtime [-- --repeat N]

Measures the runtime's server CPU per call against the SDK's own echo server, all scenarios in
interleaved slices. --repeat N makes N runs on the same warm servers and prints each ratio's median
and range over them. A target is met when the median of at least 3 runs meets it, so for a verdict:

  npm run bench:runtime -- --repeat 3

Options:
  --repeat N   measured runs (default 1, or BENCH_REPEAT)
  -h, --help   this text

Environment: BENCH_CLIENTS, BENCH_ROUNDS, BENCH_SLICE_SECONDS, BENCH_WARM_SECONDS,
BENCH_RECALL_POOL, BENCH_POSTGRES=0 (no PostgreSQL column), BENCH_BASELINE_ROOT.
`;

/**
 * How many runs `args` (or npm's `npmConfig`, or `fromEnv`) ask for; prints help or a usage error
 * and exits.
 */
export function repeatOption(args: string[], fromEnv?: string, npmConfig?: string): number {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (parsed.values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const positional = parsed.positionals;
  if (positional.length > (npmConfig === "true" ? 1 : 0))
    return usageError(`unexpected argument "${positional.at(-1)}"`);
  const viaNpm = npmConfig === "true" ? positional[0] : npmConfig;
  const raw = parsed.values.repeat ?? viaNpm ?? fromEnv ?? "1";
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1)
    return usageError(`--repeat takes a whole number of runs, at least 1 (got "${raw}")`);
  return n;
}

const parse = (args: string[]) =>
  parseArgs({
    args,
    options: { repeat: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
    allowPositionals: true,
  });

function usageError(message: string): never {
  process.stderr.write(`bench:runtime: ${message} (see --help)\n`);
  process.exit(2);
}

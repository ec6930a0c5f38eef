/**
 * The soak benchmark's command line. Each option also comes from the environment
 * (BENCH_SOAK_CALLS, …) and from npm's own config when given without `--`
 * (`npm run bench:soak --calls 20000` leaves npm_config_calls "true" and passes the 20000 on).
 * Bad input ends the process with a one-line message and exit code 2, never a stack.
 */
import { parseArgs } from "node:util";

/** What a soak run does. */
export interface SoakOptions {
  /** Measured calls (after the warm-up). */
  calls: number;
  /** Wall-time cap of the traffic (warm-up and measured calls together), minutes. */
  minutes: number;
  /** Unmeasured warm-up calls. */
  warmup: number;
  /** Concurrent clients. */
  clients: number;
}

const HELP = `Usage: npm run bench:soak [-- --calls N] [--minutes M] [--warmup N] [--clients N]

Sends mixed authenticated traffic (context reads, goal completions, Verified Recall rounds,
tools/list and a few calls the server must refuse) to one coach server process (the compiled CLI,
SQLite) and prints:
  - the server's resident memory at start, after the warm-up and at the end (target: at most 5%
    growth after the warm-up),
  - the JSON Schema compilations the server counted after the warm-up, from /metrics (target: 0),
  - p50/p99 latency and server CPU per call of the first against the last tenth of the run,
  - lost writes: every write the server answered as saved is looked up in the SQLite file at the
    end (target: 0).
It is meant to run outside CI, on a quiet machine; --minutes bounds how long it may take.

Options:
  --calls N     measured calls after the warm-up (default 1000000, or BENCH_SOAK_CALLS)
  --minutes M   stop the traffic after M minutes even if not all calls are made (default 180,
                or BENCH_SOAK_MINUTES)
  --warmup N    unmeasured calls first (default 30% of --calls, at least 5000, at most 300000,
                or BENCH_SOAK_WARMUP): long enough for the server's bounded caches (tokens,
                sessions, the turn monitor) to fill, so growth after it is what never stops
  --clients N   concurrent clients (default 8, or BENCH_SOAK_CLIENTS)
  -h, --help    this text

Exit code 1 when a write is lost or a call is answered otherwise than it must be (a 5xx, an
internal error, a refusal of a valid call or the acceptance of an invalid one).
`;

const NAMES = ["calls", "minutes", "warmup", "clients"] as const;

/** The options `args` (then npm's config, then `env`) ask for; prints help or a usage error. */
export function soakOptions(args: string[], env: NodeJS.ProcessEnv): SoakOptions {
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
  // `npm run bench:soak --calls 20000`: npm keeps --calls ("true") and passes 20000 on.
  const positionals = [...parsed.positionals];
  const raw = (name: (typeof NAMES)[number]): string | undefined => {
    const npm = env[`npm_config_${name}`];
    const fromNpm = npm === "true" ? positionals.shift() : npm;
    return parsed.values[name] ?? fromNpm ?? env[`BENCH_SOAK_${name.toUpperCase()}`];
  };
  const values = Object.fromEntries(NAMES.map((name) => [name, raw(name)]));
  if (positionals.length) return usageError(`unexpected argument "${positionals[0]}"`);
  const number = (name: (typeof NAMES)[number], fallback: number, min: number): number => {
    const text = values[name] ?? String(fallback);
    const n = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text.trim()) || n < min)
      return usageError(`--${name} takes a number of at least ${min} (got "${text}")`);
    return n;
  };
  const calls = Math.round(number("calls", 1_000_000, 1));
  // Each Verified Recall round brings a new learner: the bounded caches fill after some 120 000
  // to 240 000 calls, and growth before that is the caches, not a leak.
  const warmupDefault = Math.min(300_000, Math.max(5_000, Math.round(calls * 0.3)));
  return {
    calls,
    minutes: number("minutes", 180, 0.1),
    warmup: Math.round(number("warmup", warmupDefault, 0)),
    clients: Math.round(number("clients", 8, 1)),
  };
}

const parse = (args: string[]) =>
  parseArgs({
    args,
    options: {
      calls: { type: "string" },
      minutes: { type: "string" },
      warmup: { type: "string" },
      clients: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });

function usageError(message: string): never {
  process.stderr.write(`bench:soak: ${message} (see --help)\n`);
  process.exit(2);
}

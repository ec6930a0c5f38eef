import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * V8 options every benchmarked server runs with: its idle-time heuristics off. A server of a
 * benchmark sits idle while the other scenarios take their slices (tens of seconds); meanwhile V8's
 * memory reducer shrinks its heap and bytecode flushing drops the compiled code of functions it has
 * not run lately, so its next slice pays for recompiling and re-optimizing its hot path. How much
 * that costs depends on the server (measured here: the SDK's documented echo server 1.6 to 2.5
 * times its per-call CPU for a slice after 35 s idle, the coach server 1.2 to 3 times), not on
 * what one of its calls costs, and it moved the peer-relative ratios by a factor of two between
 * runs. With them off, a server's per-call CPU after 35 s idle is within noise of the same server
 * kept busy, for every server alike.
 */
export const STEADY_STATE_V8_FLAGS: readonly string[] = [
  "--no-flush-bytecode",
  "--no-memory-reducer",
];

/**
 * Start a Node server process in `root` (its stdout is watched, stderr inherited) and wait for the
 * MCP URL it prints (resolving with what it printed up to there); rejects if it exits first. It
 * runs with `STEADY_STATE_V8_FLAGS` before `args`.
 */
export function startProcess(
  root: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string; stdout: string }> {
  const child = spawn(process.execPath, [...STEADY_STATE_V8_FLAGS, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /MCP endpoint (http:\/\/\S+\/mcp)/.exec(out);
      if (m) resolve({ child, url: m[1], stdout: out });
    });
    child.once("exit", (code) =>
      reject(new Error(`server exited (${code}) before listening: ${out}`)),
    );
  });
}

/** SIGTERM a server process and wait until it has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** The fields of /proc/<pid>/stat after the command name (state, ppid, …); undefined if gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Clock ticks (100 per second on Linux) of the given stat fields, in ms. */
const ticksMs = (fields: string[], ...at: number[]) =>
  at.reduce((sum, i) => sum + Number(fields[i]), 0) * 10;

/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from /proc. Clock ticks
 * are 100 per second on Linux; undefined where /proc is missing.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const fields = statFields(pid);
  return fields && ticksMs(fields, 11, 12);
}

/**
 * CPU time a server of several processes has used so far, in ms: the parent (e.g. the PostgreSQL
 * postmaster), its live children (one backend per connection, the background workers) and the
 * children it has reaped. A child that exits between two readings moves its time from the live sum
 * into the reaped one, so the difference of two readings stays the time used in between.
 */
export function processTreeCpuMs(pid: number): number | undefined {
  const own = statFields(pid);
  if (!own) return undefined;
  let sum = ticksMs(own, 11, 12, 13, 14);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === pid) sum += ticksMs(fields, 11, 12);
  }
  return sum;
}

/** Resident set size of a process (bytes), from /proc; undefined where /proc is missing. */
export function processRssBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * Start a Node server process in `root` (its stdout is watched, stderr inherited) and wait for the
 * MCP URL it prints; rejects if it exits first.
 */
export function startProcess(
  root: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /MCP endpoint (http:\/\/\S+\/mcp)/.exec(out);
      if (m) resolve({ child, url: m[1] });
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

/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from /proc. Clock ticks
 * are 100 per second on Linux; undefined where /proc is missing.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
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

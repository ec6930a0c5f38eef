import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../../support/temp-project.js";

/** `skillpilot trace record` running as its own process (the compiled CLI). */
export interface RecordProcess {
  child: ChildProcess;
  /** The proxy's URL of the upstream endpoint, from its banner. */
  url: string;
  origin: string;
  port: number;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Its peak resident set so far, in MB (VmHWM of /proc/<pid>/status). */
  peakMb(): number;
  /** SIGTERM, and wait for it to exit; resolves with its exit code and stdout. */
  stop(): Promise<{ code: number | null; stdout: string }>;
}

/** Start `skillpilot trace record ARGS…` and wait for its banner (rejects if it exits first). */
export function startRecordProcess(args: string[]): Promise<RecordProcess> {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, "bin/skillpilot.js"), "trace", "record", ...args],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) =>
      reject(new Error(`trace record exited (${code}) before listening: ${out}${err}`));
    child.once("exit", exited);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /recording proxy on (http:\/\/127\.0\.0\.1:(\d+))(\S*)/.exec(out);
      if (!m || !out.includes("\n")) return;
      child.off("exit", exited);
      resolve({
        child,
        url: m[1] + m[3],
        origin: m[1],
        port: Number(m[2]),
        stderr: () => err,
        peakMb: () => {
          const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
          return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
        },
        stop: async () => {
          if (child.exitCode === null) {
            const done = new Promise((r) => child.once("exit", r));
            child.kill("SIGTERM");
            await done;
          }
          return { code: child.exitCode, stdout: out };
        },
      });
    });
  });
}

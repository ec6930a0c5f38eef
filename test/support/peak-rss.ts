import { execFile } from "node:child_process";
import path from "node:path";
import type { CliRun } from "./run-cli.js";
import { repoRoot } from "./temp-project.js";

/** A CLI run with the child's peak resident memory, as the kernel counted it. */
export interface MeasuredRun extends CliRun {
  /** Peak resident set size of the CLI process, in MB (GNU time's "Maximum resident set size"). */
  peakMb: number;
}

/**
 * Run the compiled CLI under `/usr/bin/time -v` (asynchronously, so a server in this process keeps
 * answering) and report its exit code, output and peak RSS. Memory, not time, is what hostile-input
 * tests bound: a cap that holds keeps the peak far below what the input would otherwise cost.
 */
export function runCliMeasured(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    execFile(
      "/usr/bin/time",
      ["-v", process.execPath, path.join(repoRoot, "bin/skillpilot.js"), ...args],
      {
        cwd: options.cwd ?? repoRoot,
        env: { ...process.env, ...options.env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const at = stderr.lastIndexOf("\tCommand being timed:");
        const stats = at >= 0 ? stderr.slice(at) : "";
        const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stats);
        const status = /Exit status: (\d+)/.exec(stats);
        if (!kb || !status) {
          reject(new Error(`no /usr/bin/time statistics: ${error?.message ?? ""}\n${stderr}`));
          return;
        }
        resolve({
          code: Number(status[1]),
          stdout,
          stderr: stderr.slice(0, at).replace(/Command exited with non-zero status \d+\n$/, ""),
          peakMb: Math.round(Number(kb[1]) / 1024),
        });
      },
    );
  });
}

import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./temp-project.js";

/** What a CLI run ended with. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the compiled CLI (`node bin/skillpilot.js ARGS…` in the repository) with `env` added to this
 * process's environment; resolves with the exit code and output instead of throwing on a non-zero
 * exit.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(repoRoot, "bin/skillpilot.js"), ...args],
      { cwd: repoRoot, env: { ...process.env, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as CliRun;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

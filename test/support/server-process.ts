import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./temp-project.js";

/** A `skillpilot start` process (the compiled CLI, as deployed). */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** The MCP endpoint it printed, e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  origin: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
  /** SIGTERM (a clean stop), then wait for the exit. */
  stop(): Promise<number | string>;
  /** SIGKILL (a crash), then wait for the exit. */
  kill(): Promise<number | string>;
}

/**
 * Start `node bin/skillpilot.js start --port 0 ARGS…` with `env` added to this process's
 * environment, and wait until it prints its MCP URL; rejects with its output if it exits first.
 */
export function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, "bin/skillpilot.js"), "start", "--port", "0", ...args],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /MCP endpoint (http:\/\/\S+\/mcp)/.exec(out);
      if (!m) return;
      child.stdout.off("data", onData);
      resolve({
        child,
        mcpUrl: m[1],
        origin: new URL(m[1]).origin,
        output: () => out,
        exited,
        stop: () => stopWith("SIGTERM"),
        kill: () => stopWith("SIGKILL"),
      });
    };
    child.stdout.on("data", onData);
    void exited.then((code) =>
      reject(new Error(`server exited (${code}) before listening:\n${out}`)),
    );
  });
}

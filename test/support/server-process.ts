import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./temp-project.js";

/** A `skillpilot start` process (the compiled CLI, as deployed), possibly still starting. */
export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  /** Resolves once it printed its MCP URL; rejects with its output if it exits first. */
  ready: Promise<ServerProcess>;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when a line containing `text` is written from now on (stdout or stderr). */
  waitFor(text: string): Promise<void>;
  /**
   * Resolves once the output so far contains `text`, printed before this call or after it (the
   * line may arrive in the same chunk as the MCP endpoint `ready` waits for).
   */
  printed(text: string): Promise<void>;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
  /** SIGTERM (a clean stop), then wait for the exit. */
  stop(): Promise<number | string>;
  /** SIGKILL (a crash), then wait for the exit. */
  kill(): Promise<number | string>;
}

/** A listening `skillpilot start` process. */
export interface ServerProcess extends Omit<SpawnedServer, "ready"> {
  /** The MCP endpoint it printed, e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  origin: string;
}

/** Node options every server spawned from here runs with (none, unless `useNodeOptions` set them). */
let nodeOptions: readonly string[] = [];

/**
 * Run every server spawned from here with these Node options before the script (a benchmark sets
 * its V8 options once, for the servers its helpers start).
 */
export function useNodeOptions(options: readonly string[]): void {
  nodeOptions = options;
}

/**
 * Spawn `node bin/skillpilot.js start --port PORT ARGS…` (port 0 unless given) with `env` added to
 * this process's environment.
 */
export function spawnServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  port = 0,
  /** The checkout whose compiled CLI runs, in its own folder (default: this repository). */
  root = repoRoot,
): SpawnedServer {
  const child = spawn(
    process.execPath,
    [
      ...nodeOptions,
      path.join(root, "bin/skillpilot.js"),
      "start",
      "--port",
      String(port),
      ...args,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] },
  );
  let out = "";
  const waiters = new Set<{ text: string; seen: string; resolve: () => void }>();
  const onChunk = (chunk: Buffer) => {
    const text = chunk.toString();
    out += text;
    for (const w of waiters) {
      // Keep the tail only: a marker may span two chunks.
      w.seen = (w.seen + text).slice(-(w.text.length + text.length));
      if (w.seen.includes(w.text)) {
        waiters.delete(w);
        w.resolve();
      }
    }
  };
  child.stdout.on("data", onChunk);
  child.stderr.on("data", onChunk);
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const base = {
    child,
    output: () => out,
    waitFor: (text: string) =>
      new Promise<void>((resolve) => waiters.add({ text, seen: "", resolve })),
    printed: (text: string) =>
      out.includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve) =>
            waiters.add({ text, seen: out.slice(-text.length), resolve }),
          ),
    exited,
    stop: () => stopWith("SIGTERM"),
    kill: () => stopWith("SIGKILL"),
  };
  const ready = new Promise<ServerProcess>((resolve, reject) => {
    const onData = () => {
      const m = /MCP endpoint (http:\/\/\S+\/mcp)/.exec(out);
      if (!m) return;
      child.stdout.off("data", onData);
      resolve({ ...base, mcpUrl: m[1], origin: new URL(m[1]).origin });
    };
    child.stdout.on("data", onData);
    void exited.then((code) =>
      reject(new Error(`server exited (${code}) before listening:\n${out}`)),
    );
  });
  // A caller that kills the process before it is ready may never look at `ready`.
  ready.catch(() => undefined);
  return { ...base, ready };
}

/** Spawn a server (see `spawnServerProcess`) and wait until it listens. */
export function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  return spawnServerProcess(args, env).ready;
}

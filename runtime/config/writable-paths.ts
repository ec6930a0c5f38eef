import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import { StartupError } from "./startup-error.js";

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;
const NOT_A_DIRECTORY = "it is a file, not a directory";
const denied = (code: string | undefined) => code === "EACCES" || code === "EPERM";

/**
 * Why `target` (a file or a directory, as `kind` says) could not be used, or undefined when it
 * can: an existing one must be of that kind and writable; a missing one needs its nearest existing
 * ancestor to be a writable directory (the missing directories are created later). Creates
 * nothing, so a refusal leaves nothing behind.
 */
async function whyUnusable(
  target: string,
  kind: "file" | "directory",
): Promise<string | undefined> {
  try {
    const isDirectory = (await stat(target)).isDirectory();
    if (kind === "file" && isDirectory) return "it is a directory";
    if (kind === "directory" && !isDirectory) return NOT_A_DIRECTORY;
    await access(target, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = errorCode(error);
    if (denied(code)) return "no permission to write it";
    if (code !== "ENOENT" && code !== "ENOTDIR") return code ?? String(error);
  }
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    try {
      if (!(await stat(dir)).isDirectory()) return `${dir} is a file, not a directory`;
      await access(dir, constants.W_OK | constants.X_OK);
      return undefined;
    } catch (error) {
      const code = errorCode(error);
      if (denied(code)) return `no permission to create anything in ${dir}`;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dir === path.dirname(dir))
        return `${dir}: ${code ?? String(error)}`;
    }
  }
}

/**
 * Refuse, before anything is created, a log destination the server could not write: the logger
 * would start, and every line (the L13 call log among them) would be lost without a word.
 */
export async function checkLogDestination(destination: string): Promise<void> {
  if (destination === "stdout" || destination === "stderr") return;
  const reason = await whyUnusable(path.resolve(destination), "file");
  if (reason)
    throw new StartupError(
      "LOG_UNWRITABLE",
      `cannot write the log to ${destination}: ${reason}; set SKILLPILOT_LOG (or logDestination) ` +
        `to a file path the server can create or append to, or to "stdout" or "stderr"`,
    );
}

/**
 * Where the JSON log goes when nothing sets it: stderr when stdout is a terminal, so a person
 * starting the server reads its banner instead of a stream of log lines; stdout otherwise (a
 * supervisor's log collector).
 */
export function defaultLogDestination(): "stdout" | "stderr" {
  return process.stdout.isTTY ? "stderr" : "stdout";
}

/**
 * Refuse a data directory that is not one (a regular file) or, when the embedded database will be
 * created in it (`created`), one that cannot be created; a raw EEXIST or EACCES from deep in the
 * start would name neither the setting nor the way out.
 */
export async function checkDataDir(dataDir: string, created: boolean): Promise<void> {
  const reason = await whyUnusable(dataDir, "directory");
  if (reason && (created || reason === NOT_A_DIRECTORY))
    throw new StartupError(
      "DATA_DIR_UNUSABLE",
      `cannot use the data directory ${dataDir}: ${reason}; choose a directory with --data-dir ` +
        `(or SKILLPILOT_DATA_DIR, dataDir)`,
    );
}

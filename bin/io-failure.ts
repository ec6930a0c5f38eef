import { existsSync } from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";

const INPUT_UNREADABLE = defineRule({
  id: "INPUT_UNREADABLE",
  family: "cli",
  severity: "error",
  summary: "A file or folder the command reads is missing or cannot be read (exit 2).",
  message: {
    path: "cannot read {path}: {reason}",
    root: "the project root {path} does not exist; pass an existing folder to -C/--root",
  },
});

const OUTPUT_UNWRITABLE = defineRule({
  id: "OUTPUT_UNWRITABLE",
  family: "cli",
  severity: "error",
  summary: "A file or folder the command writes cannot be created or written (exit 2).",
  message: "cannot write {path}: {reason}",
});

/** System calls that change the file system: their failure is about output. */
const WRITING = new Set([
  "mkdir",
  "rmdir",
  "rename",
  "unlink",
  "write",
  "copyfile",
  "symlink",
  "link",
  "chmod",
  "chown",
  "utime",
  "fsync",
  "ftruncate",
]);

/** Words for the error codes a person meets; others are named by their code. */
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "a file is in the way",
  ENOTDIR: "a part of the path is a file, not a directory",
  EISDIR: "it is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
};

/**
 * A file-system failure that escaped a command (a missing `-C/--root`, a scaffold target that is a
 * file, …) as a diagnostic located at the path, so it is rendered in the requested format instead
 * of a raw system error; undefined for anything else (a bug keeps its message).
 */
export function ioFailure(error: unknown, root: string): Diagnostic | undefined {
  const e = error as NodeJS.ErrnoException;
  if (!(error instanceof Error) || typeof e.code !== "string" || typeof e.path !== "string")
    return undefined;
  const abs = path.resolve(root, e.path);
  const rel = path.relative(root, abs);
  const file = rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : abs;
  const shown = file.split(path.sep).join("/");
  const reason =
    e.syscall === "mkdir" && e.code === "EEXIST"
      ? "it is a file, not a directory"
      : (REASONS[e.code] ?? e.code);
  const writing =
    WRITING.has(e.syscall ?? "") || (e.syscall === "open" && /^E(EXIST|ROFS)$/.test(e.code));
  if (writing) return diagnose(OUTPUT_UNWRITABLE, { path: shown, reason }, { file: shown });
  if (e.code === "ENOENT" && !existsSync(root))
    return diagnose(INPUT_UNREADABLE, { variant: "root", path: root }, { file: root });
  return diagnose(INPUT_UNREADABLE, { variant: "path", path: shown, reason }, { file: shown });
}

import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

/*
 * The one reader of a project's git history: the committed versions of files (the release history
 * checks), a file at a commit (Contract-Diff's `git:REF` baselines, the line history), a commit's
 * tree and the work tree's blob ids. Paths are repository paths, so each reader first checks that
 * the project root is the top of its work tree.
 */

const run = promisify(execFile);
const bigOutput = { maxBuffer: 512 * 1024 * 1024 };

/** One committed version of a file: the commit that wrote it and the bytes it wrote. */
export interface FileVersion {
  commit: string;
  path: string;
  text: string;
}

/** What the git history of some files holds, oldest first. */
export interface GitHistory {
  /** False when the project root is not the top of a git work tree (or git is missing). */
  available: boolean;
  /** True in a shallow clone: commits before the shallow boundary are not seen. */
  shallow: boolean;
  versions: FileVersion[];
}

const none: GitHistory = { available: false, shallow: false, versions: [] };

/** Whether `root` is the top of a git work tree, so repository paths are project paths. */
async function isWorkTreeTop(root: string): Promise<boolean> {
  try {
    const { stdout } = await run("git", ["-C", root, "rev-parse", "--show-toplevel"]);
    return path.resolve(stdout.trim()) === path.resolve(root);
  } catch {
    return false;
  }
}

/**
 * Every committed version of `paths` reachable from HEAD, oldest first, in two git processes
 * whatever the length of the history: one `git log --raw` for the blob ids each commit wrote, one
 * `git cat-file --batch` for their bytes. Deletions are not versions (a deleted file has no state).
 */
export async function readGitHistory(root: string, paths: readonly string[]): Promise<GitHistory> {
  if (!(await isWorkTreeTop(root))) return none;
  try {
    const shallow = await run("git", ["-C", root, "rev-parse", "--is-shallow-repository"]).then(
      (r) => r.stdout.trim() === "true",
    );
    const { stdout } = await run(
      "git",
      [
        "-C",
        root,
        "log",
        "--reverse",
        "--no-renames",
        "--raw",
        "--no-abbrev",
        "--no-color",
        "--format=commit %H",
        "--",
        ...paths,
      ],
      bigOutput,
    ).catch(() => ({ stdout: "" })); // no commit yet
    const written: { commit: string; path: string; blob: string }[] = [];
    let commit = "";
    for (const line of stdout.split("\n")) {
      if (line.startsWith("commit ")) commit = line.slice(7);
      const raw = /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) ([A-Z])\d*\t(.+)$/.exec(line);
      if (raw && raw[2] !== "D") written.push({ commit, path: raw[3], blob: raw[1] });
    }
    const blobs = await readBlobs(root, [...new Set(written.map((w) => w.blob))]);
    const versions = written.flatMap((w) => {
      const text = blobs.get(w.blob);
      return text === undefined ? [] : [{ commit: w.commit, path: w.path, text }];
    });
    return { available: true, shallow, versions };
  } catch {
    return none;
  }
}

/** The bytes of some blobs, by id, from one `git cat-file --batch`. */
async function readBlobs(root: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!ids.length) return out;
  const data = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn("git", ["-C", root, "cat-file", "--batch"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git cat-file: ${code}`)),
    );
    child.stdin.end(`${ids.join("\n")}\n`);
  });
  let at = 0;
  while (at < data.length) {
    const eol = data.indexOf(10, at);
    if (eol < 0) break;
    const [id, type, size] = data.subarray(at, eol).toString("utf8").split(" ");
    at = eol + 1;
    if (type === undefined) continue; // "<id> missing"
    const end = at + Number(size);
    if (type === "blob") out.set(id, data.subarray(at, end).toString("utf8"));
    at = end + 1;
  }
  return out;
}

/** One file of a committed tree: its mode and blob id. */
export interface TreeFile {
  mode: string;
  blob: string;
}

/**
 * The files under `dir` in the tree of `ref` (`git ls-tree -r`), by repository path; undefined when
 * `ref` is not a commit of the work tree at `root`.
 */
export async function readGitTree(
  root: string,
  ref: string,
  dir: string,
): Promise<Map<string, TreeFile> | undefined> {
  if (!(await isWorkTreeTop(root))) return undefined;
  try {
    const { stdout } = await run(
      "git",
      ["-C", root, "ls-tree", "-r", "-z", "--full-tree", `${ref}^{commit}`, "--", dir],
      bigOutput,
    );
    const out = new Map<string, TreeFile>();
    for (const entry of stdout.split("\0")) {
      const m = /^(\d+) blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
      if (m) out.set(m[3], { mode: m[1], blob: m[2] });
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Whether `ref` names a commit of the repository at `root` (never read as an option). */
export async function isCommit(root: string, ref: string): Promise<boolean> {
  try {
    await run("git", [
      "-C",
      root,
      "rev-parse",
      "--verify",
      "-q",
      "--end-of-options",
      `${ref}^{commit}`,
    ]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The text of a file at `ref`: undefined when the file is not in that commit, null when `ref`
 * is not a commit of the work tree at `root`.
 */
export async function readGitFile(
  root: string,
  ref: string,
  file: string,
): Promise<string | undefined | null> {
  if (!(await isWorkTreeTop(root)) || !(await isCommit(root, ref))) return null;
  try {
    return (await run("git", ["-C", root, "show", `${ref}:${file}`], bigOutput)).stdout;
  } catch {
    return undefined;
  }
}

/**
 * The blob ids the files at `paths` of the work tree would get if added now (git's clean filters
 * applied, so they compare with committed blob ids), in one `git hash-object --stdin-paths`.
 */
export async function workTreeBlobIds(
  root: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!paths.length) return out;
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn("git", ["-C", root, "hash-object", "--stdin-paths"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (text += c));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`git hash-object: ${code}`)),
    );
    child.stdin.end(`${paths.join("\n")}\n`);
  });
  const ids = stdout.trim().split("\n");
  for (const [i, p] of paths.entries()) out.set(p, ids[i]);
  return out;
}

import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * Create the data directory private to this user (0700: it holds learner names and keys, C15), or
 * tighten an existing one left group- or world-accessible by an older version or a permissive
 * umask. A directory this user cannot tighten (someone else's) stops the start with a message that
 * says what to do.
 */
export async function preparePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { mode } = await stat(dir);
  if ((mode & 0o077) === 0) return;
  try {
    await chmod(dir, 0o700);
  } catch (error) {
    throw new Error(
      `the data directory ${dir} is accessible by other users (mode ` +
        `${(mode & 0o777).toString(8).padStart(4, "0")}) and could not be made private ` +
        `(${(error as NodeJS.ErrnoException).code ?? "error"}): run \`chmod 700 ${dir}\` as its ` +
        `owner, or choose another --data-dir`,
    );
  }
}

/**
 * Make the embedded database private before SQLite opens it: its directory 0700 (see
 * `preparePrivateDir`) and the file 0600 (it holds learner names, C15), like secrets.json. SQLite
 * gives its -wal and -shm files the mode of the database file, so they follow. A file left 0644 by
 * an older version is tightened.
 */
export async function preparePrivateFile(file: string): Promise<void> {
  await preparePrivateDir(path.dirname(file));
  const handle = await open(file, "a", 0o600);
  await handle.close();
  await chmod(file, 0o600);
}

/** Make a directory entry (a rename or a new link) durable. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Write `contents` to `file` (mode 0600) atomically: a temp file in the same directory is written,
 * fsynced and then moved into place, and the directory is fsynced, so a crash at any moment leaves
 * either the old file (or none) or the complete new one — never a partial file that would stop the
 * next start. `exclusive`: only create, never replace (the temp file is hard-linked into place, which
 * fails with EEXIST when another process got there first; the caller then reads theirs).
 */
export async function writePrivateFileAtomic(
  file: string,
  contents: string,
  { exclusive = false }: { exclusive?: boolean } = {},
): Promise<void> {
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  const handle = await open(tmp, "wx", 0o600);
  try {
    await handle.writeFile(contents);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    if (exclusive) {
      await link(tmp, file);
      await unlink(tmp);
    } else {
      await rename(tmp, file);
    }
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  await syncDir(path.dirname(file));
}

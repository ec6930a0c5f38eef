import { chmod, mkdir, open } from "node:fs/promises";
import path from "node:path";

/**
 * Make the embedded database private before SQLite opens it: its directory is created 0700 and the
 * file 0600 (it holds learner names, C15), like secrets.json. SQLite gives its -wal and -shm files
 * the mode of the database file, so they follow. A file left 0644 by an older version is tightened.
 */
export async function preparePrivateFile(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, "a", 0o600);
  await handle.close();
  await chmod(file, 0o600);
}

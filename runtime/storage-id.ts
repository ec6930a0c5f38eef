import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";

/** Where a configuration keeps its data: the data directory, and PostgreSQL when configured. */
export interface StorageLocation {
  dataDir: string;
  databaseUrl?: string;
}

/**
 * A short, non-reversible name of where a server keeps its data: the data directory (by device and
 * inode, so another path to the same folder names it too) and the PostgreSQL database when one is
 * configured (host, port and database name; never the credentials). A loopback server shows it on
 * `/healthz`, so `auth token` and `session start` can tell that the server on the port they name
 * keeps its data somewhere else than the folder they would act on. `undefined` when the data
 * directory does not exist (yet).
 */
export async function storageId(location: StorageLocation): Promise<string | undefined> {
  const dir = await stat(location.dataDir).catch(() => undefined);
  if (!dir) return undefined;
  let database = "";
  if (location.databaseUrl) {
    try {
      const url = new URL(location.databaseUrl);
      database = `${url.hostname}:${url.port}${url.pathname}`;
    } catch {
      database = "unparsable";
    }
  }
  return createHash("sha256")
    .update(`skillpilot storage\0${dir.dev}:${dir.ino}\0${database}`)
    .digest("hex")
    .slice(0, 16);
}

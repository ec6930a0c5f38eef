import { stat } from "node:fs/promises";
import path from "node:path";
import type { Knex } from "knex";
import { StartupError } from "../config/startup-error.js";
import { databaseFileName } from "./sqlite-store.js";

/** The secrets file of a data directory: written only after its database was created. */
const SECRETS_FILE = "secrets.json";

const sizeOf = (file: string): Promise<number | undefined> =>
  stat(file).then(
    (s) => s.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    },
  );

/**
 * Refuse an empty database file beside an existing `secrets.json`. A data directory gets its
 * database (created and migrated) before its secrets, so secrets beside an empty file mean the
 * database was lost (truncated, replaced by an empty file): starting would silently start afresh
 * and lose every learner. A first start that stopped before its migrations leaves no secrets.
 */
export async function refuseLostDatabase(dataDir: string): Promise<void> {
  const file = path.join(dataDir, databaseFileName);
  if ((await sizeOf(file)) !== 0 || (await sizeOf(path.join(dataDir, SECRETS_FILE))) === undefined)
    return;
  throw new StartupError(
    "DATABASE_DAMAGED",
    `${file} is empty, but ${path.join(dataDir, SECRETS_FILE)} shows this data directory has ` +
      "served before: the database was lost. Restore it from a backup; to start afresh on " +
      `purpose, move ${SECRETS_FILE} and the empty file away`,
  );
}

/** SQLite's result codes of a damaged file. */
const DAMAGED = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB"]);

/** Whether an error says the SQLite file is damaged. */
export function isDamagedDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && [...DAMAGED].some((c) => code.startsWith(c));
}

/** The one-line refusal of a damaged database file. */
export function damagedDatabase(name: string, problem: string): StartupError {
  return new StartupError(
    "DATABASE_DAMAGED",
    `${name} is damaged (${problem.slice(0, 200)}): restore it from a backup; the server does not ` +
      "start on a damaged database and never repairs one",
  );
}

/**
 * `PRAGMA quick_check` on the embedded database at start (every page and b-tree structure, not
 * the indexes' contents): a file with garbage in an inner page starts nothing instead of serving
 * until the damage is read. It reads the whole file once (see docs/reliability.md for its cost).
 */
export async function assertDatabaseIntact(knex: Knex, name: string): Promise<void> {
  let rows: { quick_check?: string }[];
  try {
    rows = (await knex.raw("PRAGMA quick_check")) as { quick_check?: string }[];
  } catch (error) {
    if (isDamagedDatabase(error)) throw damagedDatabase(name, (error as Error).message);
    throw error;
  }
  const problems = rows.map((r) => r.quick_check ?? "").filter((p) => p !== "ok");
  if (problems.length > 0)
    throw damagedDatabase(
      name,
      `PRAGMA quick_check: ${problems.length} problem${problems.length === 1 ? "" : "s"}, first: ${problems[0]}`,
    );
}

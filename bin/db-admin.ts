import { type Command, InvalidArgumentError } from "commander";
import type { Knex } from "knex";
import { ExitCode } from "./exit-codes.js";
import { projectPaths } from "./commands/root.js";

/** The options every `db` subcommand takes (`--to` only migrate and rollback). */
export interface DbOptions {
  dataDir?: string;
  config?: string;
  json?: boolean;
  to?: number;
}

/** `--to`: a state schema version number. */
export function versionArgument(value: string): number {
  if (!/^\d{1,6}$/.test(value))
    throw new InvalidArgumentError(`expected a state schema version number, got "${value}".`);
  return Number(value);
}

/** Add the database options (`--data-dir`, `--config`, `--json`) to a `db` subcommand. */
export function dbOptions(command: Command): Command {
  return command
    .option(
      "--data-dir <dir>",
      "SQLite database directory (env SKILLPILOT_DATA_DIR; default ./data); DATABASE_URL selects PostgreSQL",
    )
    .option("--config <file>", "JSON config file (default ./skillpilot.config.json when present)")
    .option("--json", "print the result as JSON");
}

/**
 * Open the configured database for admin work and run `work`; a database that cannot be opened is
 * exit 2. `create: false` leaves a missing SQLite file missing (status).
 */
export async function withDatabase(
  command: Command,
  opts: DbOptions,
  create: boolean,
  work: (knex: Knex | undefined, where: string) => Promise<number>,
): Promise<void> {
  const { loadConfig } = await import("../runtime/config/config.js");
  const { describeDatabase, openAdminKnex } = await import("../runtime/store/state-schema.js");
  const { preparePrivateFile } = await import("../runtime/store/private-file.js");
  const { databaseFileName } = await import("../runtime/store/sqlite-store.js");
  const path = await import("node:path");
  const { existsSync } = await import("node:fs");
  const config = await loadConfig(projectPaths(command).root, {
    dataDir: opts.dataDir,
    configFile: opts.config,
  });
  const where = describeDatabase(config);
  const sqliteFile = path.join(config.dataDir, databaseFileName);
  if (!config.databaseUrl && !create && !existsSync(sqliteFile)) {
    process.exitCode = await work(undefined, where);
    return;
  }
  if (!config.databaseUrl && create) await preparePrivateFile(sqliteFile);
  const knex = await openAdminKnex(config, { create });
  try {
    process.exitCode = await work(knex, where);
  } catch (error) {
    const { MigrationFailed, StateSchemaRefused } = await import(
      "../runtime/store/state-schema.js"
    );
    if (!(error instanceof StateSchemaRefused || error instanceof MigrationFailed)) throw error;
    process.stderr.write(`skillpilot db: ${where}: ${error.message}\n`);
    process.exitCode = error instanceof MigrationFailed ? ExitCode.usage : ExitCode.findings;
  } finally {
    await knex.destroy();
  }
}

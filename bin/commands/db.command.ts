import { type Command, InvalidArgumentError } from "commander";
import type { Knex } from "knex";
import type { StateSchemaStatus } from "../../runtime/store/state-schema.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { projectPaths } from "./root.js";

interface DbOptions {
  dataDir?: string;
  config?: string;
  json?: boolean;
  to?: number;
}

function versionArgument(value: string): number {
  if (!/^\d{1,6}$/.test(value))
    throw new InvalidArgumentError(`expected a state schema version number, got "${value}".`);
  return Number(value);
}

function dbOptions(command: Command): Command {
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
async function withDatabase(
  command: Command,
  opts: DbOptions,
  create: boolean,
  work: (knex: Knex | undefined, where: string) => Promise<number>,
): Promise<void> {
  const { loadConfig } = await import("../../runtime/config/config.js");
  const { describeDatabase, openAdminKnex } = await import("../../runtime/store/state-schema.js");
  const { preparePrivateFile } = await import("../../runtime/store/private-file.js");
  const { databaseFileName } = await import("../../runtime/store/sqlite-store.js");
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
      "../../runtime/store/state-schema.js"
    );
    if (!(error instanceof StateSchemaRefused || error instanceof MigrationFailed)) throw error;
    process.stderr.write(`skillpilot db: ${where}: ${error.message}\n`);
    process.exitCode = error instanceof MigrationFailed ? ExitCode.usage : ExitCode.findings;
  } finally {
    await knex.destroy();
  }
}

function statusLines(where: string, status: StateSchemaStatus, verdict: string): string {
  const rows = status.learnerRows.map((r) => `${r.learners} at state schema ${r.version}`);
  return [
    `database: ${where}`,
    `state schema version: ${status.database ?? (status.unknown.length ? "unknown (newer than this server)" : "unknown (inconsistent migration history)")} (this server: ${status.server})`,
    `migrations applied: ${status.applied.join(", ") || "none"}`,
    `migrations pending: ${status.pending.join(", ") || "none"}`,
    ...(status.unknown.length
      ? [`migrations unknown to this server: ${status.unknown.join(", ")}`]
      : []),
    ...(status.missing.length
      ? [`migrations missing from the history: ${status.missing.join(", ")}`]
      : []),
    ...(status.misordered.length
      ? [`migrations recorded out of order: ${status.misordered.join(", ")}`]
      : []),
    `learner rows: ${rows.join(", ") || "none"}`,
    verdict,
    "",
  ].join("\n");
}

/** `skillpilot db status|migrate|rollback`: the state schema of the database (L2, L12.5). */
export function registerDbCommand(program: Command): void {
  const db = program
    .command("db")
    .summary("Show, migrate or roll back the state schema")
    .description(
      "The database's state schema version (the format learner data is stored in): status, " +
        "migrate forward, roll back with the learner data kept. `start` migrates forward on its " +
        "own from state schema 3 up to its own version and refuses a database of a version it " +
        "does not know.",
    )
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );

  dbOptions(
    db
      .command("status")
      .summary("Show the state schema and pending migrations")
      .description(
        "Show the database's state schema version, its applied and pending migrations and its " +
          "learner rows per stored version, and what `start` would do.",
      ),
  )
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "the database is at this server's state schema version",
        findings:
          "it needs `db migrate` (start would migrate it), does not exist yet, is of a version this server does not know, or its migration history has a gap or is out of order",
        usage: "usage error, or the database cannot be opened",
      }),
    )
    .action(async (opts: DbOptions, command: Command) => {
      const { latestStateSchemaVersion, readStateSchemaStatus, refusal } = await import(
        "../../runtime/store/state-schema.js"
      );
      const { migrations } = await import("../../runtime/store/migrations/index.js");
      await withDatabase(command, opts, false, async (knex, where) => {
        const status: StateSchemaStatus = knex
          ? await readStateSchemaStatus(knex)
          : {
              server: latestStateSchemaVersion,
              database: 0,
              applied: [],
              pending: migrations.map((m) => m.name),
              unknown: [],
              missing: [],
              misordered: [],
              learnerRows: [],
            };
        const refused = refusal(status);
        const verdict = refused
          ? `refused: ${refused}`
          : status.pending.length === 0
            ? "up to date"
            : knex
              ? `start (or db migrate) migrates it to state schema ${status.server}`
              : `no database yet: start (or db migrate) creates it at state schema ${status.server}`;
        if (opts.json)
          process.stdout.write(
            `${JSON.stringify({ location: where, ...status, verdict }, null, 2)}\n`,
          );
        else process.stdout.write(statusLines(where, status, verdict));
        return refused || status.pending.length > 0 ? ExitCode.findings : ExitCode.ok;
      });
    });

  dbOptions(
    db
      .command("migrate")
      .summary("Migrate the database forward")
      .description(
        "Migrate the database forward to this server's state schema version (or --to a lower " +
          "known one), one known migration at a time. Never touches a database of a version this " +
          "server does not know.",
      )
      .option(
        "--to <version>",
        "target state schema version (default: this server's)",
        versionArgument,
      ),
  )
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "migrated, or already there",
        findings:
          "refused: the database is of a version this server does not know, its migration history is inconsistent, or the target is unknown",
        usage: "usage error, the database cannot be opened, or a migration failed",
      }),
    )
    .action(async (opts: DbOptions, command: Command) => {
      const { migrateForward, readStateSchemaStatus } = await import(
        "../../runtime/store/state-schema.js"
      );
      const { startProgress } = await import("../progress.js");
      await withDatabase(command, opts, true, async (db, where) => {
        const knex = db!;
        const before = (await readStateSchemaStatus(knex)).database;
        const progress = startProgress("db migrate", `migrating ${where}`);
        const applied = await migrateForward(knex, opts.to).finally(progress.done);
        const after = (await readStateSchemaStatus(knex)).database;
        const message = applied.length
          ? `migrated ${where} from state schema ${before} to ${after}: ${applied.join(", ")}`
          : `${where} is at state schema ${after}; nothing to migrate`;
        process.stdout.write(
          opts.json
            ? `${JSON.stringify({ location: where, from: before, to: after, applied })}\n`
            : `${message}\n`,
        );
        return ExitCode.ok;
      });
    });

  dbOptions(
    db
      .command("rollback")
      .summary("Roll the database back to an earlier state schema")
      .description(
        "Roll the database back to an earlier state schema version (default: the one before its " +
          "current version), newest migration first, keeping learner data. Data only the newer " +
          "version holds (e.g. the policy revision floor of version 4) is dropped; migrating " +
          "forward again seeds the floor from the sessions' highest policyRevision.",
      )
      .option(
        "--to <version>",
        "target state schema version (default: the previous one)",
        versionArgument,
      ),
  )
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "rolled back, or already there",
        findings:
          "refused: an unknown database version, an inconsistent migration history, or a version this database cannot be rolled back to",
        usage: "usage error, or the database cannot be opened",
      }),
    )
    .action(async (opts: DbOptions, command: Command) => {
      const { readStateSchemaStatus, rollbackTo } = await import(
        "../../runtime/store/state-schema.js"
      );
      await withDatabase(command, opts, false, async (knex, where) => {
        if (!knex) {
          process.stderr.write(`skillpilot db: ${where} does not exist; nothing to roll back\n`);
          return ExitCode.findings;
        }
        const status = await readStateSchemaStatus(knex);
        const undone = await rollbackTo(knex, opts.to);
        const after = (await readStateSchemaStatus(knex)).database;
        const message = undone.length
          ? `rolled ${where} back from state schema ${status.database} to ${after}: undid ${undone.join(", ")}`
          : `${where} is at state schema ${after}; nothing to roll back`;
        process.stdout.write(
          opts.json
            ? `${JSON.stringify({ location: where, from: status.database, to: after, undone })}\n`
            : `${message}\n`,
        );
        return ExitCode.ok;
      });
    });
}

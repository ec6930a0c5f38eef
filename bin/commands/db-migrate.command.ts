import type { Command } from "commander";
import { type DbOptions, dbOptions, versionArgument, withDatabase } from "../db-admin.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";

/** `skillpilot db migrate`: migrate the database forward (L12.5). */
export function registerDbMigrateCommand(db: Command): void {
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
}

import type { Command } from "commander";
import { type DbOptions, dbOptions, versionArgument, withDatabase } from "../db-admin.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";

/** `skillpilot db rollback`: roll the database back to an earlier state schema, data kept. */
export function registerDbRollbackCommand(db: Command): void {
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

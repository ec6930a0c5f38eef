import type { Command } from "commander";
import { exitCodesHelp } from "../exit-codes.js";
import { registerDbMigrateCommand } from "./db-migrate.command.js";
import { registerDbRollbackCommand } from "./db-rollback.command.js";
import { registerDbStatusCommand } from "./db-status.command.js";

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
  registerDbStatusCommand(db);
  registerDbMigrateCommand(db);
  registerDbRollbackCommand(db);
}

import type { Command } from "commander";
import type { StateSchemaStatus } from "../../runtime/store/state-schema.js";
import { type DbOptions, dbOptions, withDatabase } from "../db-admin.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";

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

/** `skillpilot db status`: the state schema of the database and what `start` would do. */
export function registerDbStatusCommand(db: Command): void {
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
}

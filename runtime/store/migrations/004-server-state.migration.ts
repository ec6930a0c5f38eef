import type { Knex } from "knex";

/**
 * State schema version 4: the `server_state` table (named integer facts the server keeps about
 * itself, first of all `policy_revision_floor`, the highest contract-line policyRevision it has
 * served, L11), and every learner row marked as written in format 4. Down restores format 3: the
 * rows are marked 3 again and the table goes (a format-3 server keeps no floor). Up seeds the floor
 * from the highest revision a stored session was launched under, so a rollback and a start again
 * do not lower it below what the sessions still prove was served.
 */
export const serverStateMigration = {
  name: "004-server-state",
  stateSchemaVersion: 4,
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable("server_state", (t) => {
      t.string("key", 64).primary();
      t.bigInteger("value").notNullable();
    });
    const served = await knex("sessions")
      .max<{ revision: number | string | null }>("policy_revision as revision")
      .first();
    await knex("server_state").insert({
      key: "policy_revision_floor",
      value: Number(served?.revision ?? 0),
    });
    await knex("learner_state")
      .where({ state_schema_version: 3 })
      .update({ state_schema_version: 4 });
  },
  async down(knex: Knex): Promise<void> {
    await knex("learner_state")
      .where({ state_schema_version: 4 })
      .update({ state_schema_version: 3 });
    await knex.schema.dropTableIfExists("server_state");
  },
};

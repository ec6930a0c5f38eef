import type { Knex } from "knex";

/**
 * State schema version 5: the provider lane a session was launched for (`schemas/lanes.json`):
 * sessions are per lane, learner progress is one. Null means the openai lane, which every session
 * launched before lanes belongs to. Every learner row is marked as written in format 5 (its JSON is
 * unchanged). Down restores format 4: the rows are marked 4 again and the column goes, which makes
 * every session of another lane an openai-lane session to a format-4 server.
 */
export const sessionLaneMigration = {
  name: "005-session-lane",
  stateSchemaVersion: 5,
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable("sessions", (t) => {
      t.string("lane", 31).nullable();
    });
    await knex("learner_state")
      .where({ state_schema_version: 4 })
      .update({ state_schema_version: 5 });
  },
  async down(knex: Knex): Promise<void> {
    await knex("learner_state")
      .where({ state_schema_version: 5 })
      .update({ state_schema_version: 4 });
    await knex.schema.alterTable("sessions", (t) => {
      t.dropColumn("lane");
    });
  },
};

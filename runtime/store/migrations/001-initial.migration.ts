import type { Knex } from "knex";

/** Initial schema: learners, their state, sessions, progress, idempotency records, receipts. */
export const initialMigration = {
  name: "001-initial",
  /** Format 3: every database before versions were recorded (learner rows say 3). */
  stateSchemaVersion: 3,
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable("learners", (t) => {
      t.increments("id").primary();
      t.string("external_name", 200).notNullable().unique();
      t.string("created_at").notNullable();
    });
    await knex.schema.createTable("learner_state", (t) => {
      t.integer("learner_id").primary().references("learners.id");
      t.integer("state_version").notNullable();
      t.integer("state_schema_version").notNullable();
      t.text("state_json").notNullable();
      t.string("updated_at").notNullable();
    });
    await knex.schema.createTable("sessions", (t) => {
      t.string("session_id", 80).primary();
      t.integer("learner_id").notNullable().references("learners.id").index();
      t.string("locale", 8).notNullable();
      t.integer("contract_major").notNullable();
      t.string("workflow_version", 40).notNullable();
      t.string("curriculum_revision", 100).notNullable();
      t.integer("policy_revision").notNullable();
      t.string("created_at").notNullable();
      t.bigInteger("expires_at").notNullable();
    });
    await knex.schema.createTable("progress", (t) => {
      t.integer("learner_id").notNullable().references("learners.id");
      t.string("goal_id", 80).notNullable();
      t.string("status", 20).notNullable();
      t.integer("attempts").notNullable();
      t.string("mastered_at").nullable();
      t.string("updated_at").notNullable();
      t.primary(["learner_id", "goal_id"]);
    });
    await knex.schema.createTable("idempotency_records", (t) => {
      t.string("session_id", 80).notNullable();
      t.string("tool_name", 80).notNullable();
      t.string("client_request_id", 40).notNullable();
      t.string("fingerprint", 64).notNullable();
      t.text("response").notNullable();
      t.string("created_at").notNullable();
      t.bigInteger("expires_at").notNullable().index();
      t.primary(["session_id", "tool_name", "client_request_id"]);
    });
    await knex.schema.createTable("receipts", (t) => {
      t.string("receipt_id", 80).primary();
      t.integer("learner_id").notNullable().references("learners.id").index();
      t.string("session_id", 80).notNullable();
      t.string("operation", 80).notNullable();
      t.integer("state_version").notNullable();
      t.string("recorded_at").notNullable();
    });
  },
  async down(knex: Knex): Promise<void> {
    for (const table of [
      "receipts",
      "idempotency_records",
      "progress",
      "sessions",
      "learner_state",
      "learners",
    ])
      await knex.schema.dropTableIfExists(table);
  },
};

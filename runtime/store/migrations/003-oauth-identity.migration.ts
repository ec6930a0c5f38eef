import type { Knex } from "knex";

/**
 * OAuth identity (L14): a session is bound to the signed-in subject (issuer + `sub`) it was
 * launched for; client profile fingerprints are activated and retired (never rewritten); running
 * instances register with the fingerprint set they serve, so two instances with different sets
 * never serve one database.
 */
export const oauthIdentityMigration = {
  name: "003-oauth-identity",
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable("sessions", (t) => {
      t.string("subject_issuer", 500).nullable();
      t.string("subject", 255).nullable();
    });
    await knex.schema.createTable("client_policy", (t) => {
      t.string("fingerprint", 64).primary();
      t.string("profile_name", 100).notNullable();
      t.string("client_id", 500).notNullable();
      t.string("resource", 500).notNullable();
      /** ACTIVE or RETIRED. */
      t.string("status", 10).notNullable();
      t.string("activated_at").notNullable();
      t.string("retired_at").nullable();
      /** The line's policyRevision when it was retired: rollback needs a higher one. */
      t.integer("retired_at_revision").nullable();
    });
    await knex.schema.createTable("server_instances", (t) => {
      t.string("instance_id", 64).primary();
      /** sha256 of the sorted active fingerprints the instance serves. */
      t.string("policy_set", 64).notNullable();
      t.string("started_at").notNullable();
      /** Epoch milliseconds of the last heartbeat. */
      t.bigInteger("heartbeat_at").notNullable();
    });
    // One row every policy transaction updates first: the write takes the lock up front on both
    // SQLite (a deferred BEGIN becomes a writer at once) and PostgreSQL (a row lock).
    await knex.schema.createTable("admin_lock", (t) => {
      t.integer("id").primary();
      t.integer("generation").notNullable();
    });
    await knex("admin_lock").insert({ id: 1, generation: 0 });
  },
  async down(knex: Knex): Promise<void> {
    for (const table of ["admin_lock", "server_instances", "client_policy"])
      await knex.schema.dropTableIfExists(table);
    await knex.schema.alterTable("sessions", (t) => {
      t.dropColumn("subject");
      t.dropColumn("subject_issuer");
    });
  },
};

import type { Knex } from "knex";

/**
 * Spent single-use capabilities (C11 replay check): which request spent a token id. Rows are
 * written inside the write transaction they authorize, so a refused call leaves its token
 * unspent; they may be purged after `expires_at`, when the token fails the staleness check first.
 */
export const spentCapabilitiesMigration = {
  name: "002-spent-capabilities",
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable("spent_capabilities", (t) => {
      t.string("jti", 64).primary();
      /** sha256 of the canonical validated input of the spending request. */
      t.string("use_key", 64).notNullable();
      t.bigInteger("expires_at").notNullable().index();
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists("spent_capabilities");
  },
};

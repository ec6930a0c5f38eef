import type { Knex } from "knex";
import { initialMigration } from "./001-initial.migration.js";
import { spentCapabilitiesMigration } from "./002-spent-capabilities.migration.js";
import { oauthIdentityMigration } from "./003-oauth-identity.migration.js";

interface NamedMigration extends Knex.Migration {
  name: string;
}

/** Every migration in order. Append only: a shipped migration never changes. */
export const migrations: readonly NamedMigration[] = [
  initialMigration,
  spentCapabilitiesMigration,
  oauthIdentityMigration,
];

/**
 * Migrations compiled into the program instead of read from a folder, so they run the same
 * under tsx, in tests and from an installed package.
 */
export const migrationSource: Knex.MigrationSource<NamedMigration> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};

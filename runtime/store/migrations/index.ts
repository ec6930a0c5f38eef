import type { Knex } from "knex";
import { initialMigration } from "./001-initial.migration.js";
import { spentCapabilitiesMigration } from "./002-spent-capabilities.migration.js";
import { oauthIdentityMigration } from "./003-oauth-identity.migration.js";
import { serverStateMigration } from "./004-server-state.migration.js";
import { sessionLaneMigration } from "./005-session-lane.migration.js";

export interface NamedMigration extends Knex.Migration {
  name: string;
  /**
   * The state schema version (L2: the persistence format) a database is at once this migration ran;
   * migrations without one keep the version of the migration before them.
   */
  stateSchemaVersion?: number;
}

/**
 * Every migration in order. Append only: a shipped migration never changes. State schema versions
 * stay in order whatever lands between their marks.
 */
export const migrations: readonly NamedMigration[] = [
  initialMigration,
  spentCapabilitiesMigration,
  oauthIdentityMigration,
  serverStateMigration,
  sessionLaneMigration,
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

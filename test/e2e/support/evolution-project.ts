import { randomBytes } from "node:crypto";
import { cp } from "node:fs/promises";
import path from "node:path";
import { generateKeyringConfig } from "../../../runtime/capability/index.js";
import type { ThrowawayPostgres } from "../../runtime/support/throwaway-postgres.js";
import { makeTemplateProject, publishRelease } from "../../release/support/temp-project.js";
import { repoRoot } from "../../support/temp-project.js";

/**
 * A project whose contract is published as 1.1.3 (prepare, freeze, record-published) with the
 * curriculum a server needs: its release records name the definitions hosts hold.
 */
export async function publishedProject(): Promise<string> {
  const project = await makeTemplateProject();
  await cp(path.join(repoRoot, "curricula"), path.join(project, "curricula"), { recursive: true });
  await publishRelease(project, "1.1.3");
  return project;
}

/** The configuration of a fixture server on SQLite (none), or on a throwaway PostgreSQL. */
export const storeOverrides = (pg: ThrowawayPostgres | undefined) =>
  pg
    ? {
        databaseUrl: pg.url,
        capabilityKeys: generateKeyringConfig("k1"),
        logHmacKey: randomBytes(32).toString("base64url"),
      }
    : {};

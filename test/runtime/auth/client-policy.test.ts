import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  activateClientPolicy,
  clientPolicyHeartbeat,
  policySetHash,
} from "../../../runtime/auth/client-policy.js";
import {
  type ActivatedProfile,
  type ClientProfile,
  profileFingerprint,
} from "../../../runtime/auth/client-profiles.js";
import { PostgresStore } from "../../../runtime/store/postgres-store.js";
import { latestStateSchemaVersion } from "../../../runtime/store/state-schema.js";
import { SqliteStore } from "../../../runtime/store/sqlite-store.js";
import type { CoachStore } from "../../../runtime/domain/ports/coach-store.js";
import { testConfidentialProfile } from "../support/test-issuer.js";
import { startThrowawayPostgres } from "../support/throwaway-postgres.js";

const RESOURCE = "https://coach.test/mcp";
const activated = (profile: ClientProfile): ActivatedProfile => ({
  ...profile,
  fingerprint: profileFingerprint(profile, RESOURCE),
});
const profileA = activated(testConfidentialProfile);
const profileB = activated({ ...testConfidentialProfile, name: "b", clientId: "client-b" });
/** An instance on another host: only its heartbeat says whether it runs. */
const otherHost = () => `${randomUUID()}:4242@host-elsewhere.test`;

for (const dialect of ["SQLite", "PostgreSQL"] as const)
  describe(`client policy liveness on ${dialect}: one clock, the database's (issue #21 item 3; L14)`, function () {
    this.timeout(60_000);
    let store: CoachStore;
    let cleanup: () => Promise<void>;
    before(async function () {
      if (dialect === "SQLite") {
        const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-client-policy-"));
        store = await SqliteStore.open(path.join(dir, "db.sqlite"), latestStateSchemaVersion);
        cleanup = () => rm(dir, { recursive: true, force: true });
      } else {
        const pg = await startThrowawayPostgres();
        if (!pg) return this.skip(); // PostgreSQL is not installed on this machine
        store = await PostgresStore.open(pg.url, latestStateSchemaVersion);
        cleanup = () => pg.stop();
      }
    });
    after(async () => {
      await store?.close();
      await cleanup?.();
    });

    const activate = (instanceId: string, profiles: ActivatedProfile[], now: Date) =>
      activateClientPolicy(store, {
        instanceId,
        profiles,
        resource: RESOURCE,
        policyRevision: 3,
        now,
      });

    it("a starting instance whose clock runs 60 s ahead keeps a live instance and its profiles", async () => {
      const live = otherHost();
      const first = await activate(live, [profileA], new Date());
      const ahead = new Date(Date.now() + 60_000);
      await assert.rejects(
        activate(otherHost(), [profileB], ahead),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "CLIENT_POLICY_CONFLICT");
          return true;
        },
      );
      // The live instance is still registered, its profile still active, its heartbeat still holds.
      const registration = {
        instanceId: live,
        policySet: policySetHash([profileA]),
        active: first.active,
      };
      assert.equal(await clientPolicyHeartbeat(store, registration, new Date()), true);
      // A clock behind does not keep a dead instance alive either: only the database's clock counts.
      assert.equal(await clientPolicyHeartbeat(store, registration, new Date(0)), true);
    });
  });

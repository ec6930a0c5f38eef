import type { Knex } from "knex";
import { canonicalSha256 } from "../../contract/canonical.js";
import { StartupError } from "../config/startup-error.js";
import type { ActivatedProfile } from "./client-profiles.js";

/** How long an instance counts as running without a heartbeat. */
export const INSTANCE_LIVE_MS = 15_000;
/** How often a running instance renews its heartbeat and re-checks the recorded policy. */
export const HEARTBEAT_MS = 5_000;

interface PolicyRow {
  fingerprint: string;
  profile_name: string;
  client_id: string;
  status: "ACTIVE" | "RETIRED";
  retired_at_revision: number | null;
}

interface InstanceRow {
  instance_id: string;
  policy_set: string;
  heartbeat_at: number | string;
}

/** The sha256 naming a set of fingerprints, as instances record it. */
export function policySetHash(profiles: readonly ActivatedProfile[]): string {
  return canonicalSha256(profiles.map((p) => p.fingerprint).sort());
}

/** Run `work` with the admin lock held: one writer at a time on SQLite and PostgreSQL alike. */
async function locked<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return knex.transaction(async (trx) => {
    // Writing first takes the lock before anything is read (SQLite: the transaction becomes the
    // writer at once; PostgreSQL: a row lock held to commit).
    await trx("admin_lock").where({ id: 1 }).increment("generation", 1);
    return work(trx);
  });
}

/** What start-up activation did (for the log line; fingerprints are not secrets). */
export interface ActivationOutcome {
  activated: string[];
  retired: string[];
}

/**
 * Activate this instance's client profiles in the database at start-up (L14, spec §10.1 "Cutover &
 * rollback"). Refused — nothing changed — when another running instance serves a different set of
 * fingerprints (old and new instances never serve one database with differing profiles), or when a
 * configured fingerprint was retired and the line's `policyRevision` was not raised above the
 * revision that retired it. Otherwise the configured fingerprints become ACTIVE, every other ACTIVE
 * one is RETIRED at the current revision (grants are never rewritten: only this server's record
 * of which profiles it honours changes), and the instance registers its heartbeat.
 */
export async function activateClientPolicy(
  knex: Knex,
  request: {
    instanceId: string;
    profiles: readonly ActivatedProfile[];
    resource: string;
    policyRevision: number;
    now: Date;
  },
): Promise<ActivationOutcome> {
  const setHash = policySetHash(request.profiles);
  const nowMs = request.now.getTime();
  const at = request.now.toISOString();
  return locked(knex, async (trx) => {
    await trx("server_instances")
      .where("heartbeat_at", "<", nowMs - INSTANCE_LIVE_MS)
      .delete();
    const live = (await trx("server_instances").select()) as InstanceRow[];
    const other = live.find(
      (i) => i.instance_id !== request.instanceId && i.policy_set !== setHash,
    );
    if (other)
      throw new StartupError(
        "CLIENT_POLICY_CONFLICT",
        "another running instance serves this database with different OAuth client profiles " +
          `(its set sha256-${other.policy_set.slice(0, 12)}, this configuration's ` +
          `sha256-${setHash.slice(0, 12)}); old and new profiles never serve one database at ` +
          "once (L14): stop the other instance first, or start this one with the same profiles",
      );
    const rows = (await trx("client_policy").select()) as PolicyRow[];
    const byFingerprint = new Map(rows.map((r) => [r.fingerprint, r]));
    for (const p of request.profiles) {
      const row = byFingerprint.get(p.fingerprint);
      if (row?.status === "RETIRED" && request.policyRevision <= (row.retired_at_revision ?? 0))
        throw new StartupError(
          "CLIENT_POLICY_ROLLBACK_REFUSED",
          `client profile "${p.name}" (fingerprint ${p.fingerprint.slice(0, 12)}…) was retired at ` +
            `policyRevision ${row.retired_at_revision}; rolling back to a retired profile needs a ` +
            `new policyRevision above ${row.retired_at_revision} in release/line.json and fresh ` +
            "authorization (L14)",
        );
    }
    const wanted = new Set(request.profiles.map((p) => p.fingerprint));
    const retired = rows.filter((r) => r.status === "ACTIVE" && !wanted.has(r.fingerprint));
    for (const r of retired)
      await trx("client_policy")
        .where({ fingerprint: r.fingerprint })
        .update({ status: "RETIRED", retired_at: at, retired_at_revision: request.policyRevision });
    const activated: string[] = [];
    for (const p of request.profiles) {
      const row = byFingerprint.get(p.fingerprint);
      if (row?.status === "ACTIVE") continue;
      activated.push(p.fingerprint);
      if (row)
        await trx("client_policy").where({ fingerprint: p.fingerprint }).update({
          status: "ACTIVE",
          activated_at: at,
          retired_at: null,
          retired_at_revision: null,
        });
      else
        await trx("client_policy").insert({
          fingerprint: p.fingerprint,
          profile_name: p.name,
          client_id: p.clientId,
          resource: request.resource,
          status: "ACTIVE",
          activated_at: at,
        });
    }
    await trx("server_instances").where({ instance_id: request.instanceId }).delete();
    await trx("server_instances").insert({
      instance_id: request.instanceId,
      policy_set: setHash,
      started_at: at,
      heartbeat_at: nowMs,
    });
    return { activated, retired: retired.map((r) => r.fingerprint) };
  });
}

/**
 * A running instance's heartbeat: renews its registration and answers whether the database still
 * records exactly its fingerprints as ACTIVE. `false` means another instance took over with other
 * profiles: this one must stop serving.
 */
export async function clientPolicyHeartbeat(
  knex: Knex,
  instanceId: string,
  profiles: readonly ActivatedProfile[],
  now: Date,
): Promise<boolean> {
  return locked(knex, async (trx) => {
    const active = (
      (await trx("client_policy").where({ status: "ACTIVE" }).select("fingerprint")) as {
        fingerprint: string;
      }[]
    )
      .map((r) => r.fingerprint)
      .sort();
    const mine = profiles.map((p) => p.fingerprint).sort();
    const same = active.length === mine.length && active.every((f, i) => f === mine[i]);
    if (same)
      await trx("server_instances")
        .where({ instance_id: instanceId })
        .update({ heartbeat_at: now.getTime() });
    return same;
  });
}

/** Remove the instance's registration on a clean stop. */
export async function deregisterInstance(knex: Knex, instanceId: string): Promise<void> {
  await knex("server_instances").where({ instance_id: instanceId }).delete();
}

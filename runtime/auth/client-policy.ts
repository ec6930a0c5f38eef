import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { canonicalSha256 } from "../../contract-model/canonical.js";
import { StartupError } from "../config/startup-error.js";
import type { CoachStore, SqlExecutor } from "../domain/ports/coach-store.js";
import type { ActivatedProfile } from "./client-profiles.js";

/** How long an instance counts as running without a heartbeat, on the database's clock. */
export const INSTANCE_LIVE_MS = 15_000;
/** How often a running instance renews its heartbeat and re-checks the recorded policy. */
export const HEARTBEAT_MS = 5_000;

/**
 * The database's clock in epoch milliseconds, as SQL. Heartbeats are written and judged by this one
 * clock, never by the clocks of the hosts the instances run on, so a host whose clock runs ahead
 * cannot take a live instance for a dead one. SQLite runs inside the processes of one host (its
 * file is never shared over a network), so its clock is that host's.
 */
function databaseNowMs(dialect: CoachStore["dialect"]): string {
  return dialect === "postgres"
    ? "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
    : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
}

interface PolicyRow {
  fingerprint: string;
  client_id: string;
  resource: string;
  status: "ACTIVE" | "RETIRED";
  activated_at: string;
  /**
   * When the profile (or, for a new fingerprint, its client) was last retired. Kept when it is
   * activated again: an ACTIVE row with a retirement is a rollback, and tokens issued before its
   * `activated_at` need fresh authorization.
   */
  retired_at: string | null;
  retired_at_revision: number | null;
}

interface InstanceRow {
  instance_id: string;
  policy_set: string;
}

/** The sha256 naming a set of fingerprints, as instances record it. */
export function policySetHash(profiles: readonly ActivatedProfile[]): string {
  return canonicalSha256(
    recorded(profiles)
      .map((p) => p.fingerprint)
      .sort(),
  );
}

/**
 * The profiles the database records. The local development profile is not among them: it is no
 * host's registered client, runs only on loopback with the embedded database, and its fingerprint
 * follows the port (the resource is the bound origin), so recording it would retire it on every
 * port change and refuse the next start on an earlier port as a rollback.
 */
function recorded(profiles: readonly ActivatedProfile[]): ActivatedProfile[] {
  return profiles.filter((p) => p.kind !== "development");
}

const INSTANCE_ID = /^([0-9a-f-]{36}):(\d+)@(.+)$/;

/** A new instance id naming this process and host (`uuid:pid@host`), for the liveness check. */
export function newInstanceId(): string {
  return `${randomUUID()}:${process.pid}@${hostname()}`;
}

/**
 * Whether a registered instance is certainly gone although its heartbeat is recent: it ran on this
 * host and its process no longer exists (killed, crashed). Ids of other hosts, and ids in another
 * form, are judged by their heartbeat alone.
 */
function goneFromThisHost(instanceId: string): boolean {
  const m = INSTANCE_ID.exec(instanceId);
  if (!m || m[3] !== hostname()) return false;
  try {
    process.kill(Number(m[2]), 0);
    return false;
  } catch (error) {
    // EPERM: the process exists, under another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Run `work` holding the admin lock: its first statement writes, which takes the lock up front on
 * both dialects (SQLite: the store's writer; PostgreSQL: a row lock held to commit).
 */
function locked<T>(store: CoachStore, work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
  return store.adminTransaction(async (sql) => {
    await sql.run("UPDATE admin_lock SET generation = generation + 1 WHERE id = 1");
    return work(sql);
  });
}

/**
 * Why activating `p` would roll back to a retired profile at `request.policyRevision`, if it would:
 * its own fingerprint was retired at that revision or later, or — under a new fingerprint (renamed,
 * a redirect added) — its client was, for this resource, and no active profile holds that client
 * now. An edit of a client that is active is a cutover, not a rollback.
 */
function rollbackRefusal(
  rows: readonly PolicyRow[],
  own: PolicyRow | undefined,
  p: ActivatedProfile,
  request: { resource: string; policyRevision: number },
): { what: string; at: number } | undefined {
  if (own?.status === "ACTIVE") return undefined;
  const retiredAt = (r: PolicyRow) => Number(r.retired_at_revision ?? 0);
  if (own?.status === "RETIRED")
    return request.policyRevision <= retiredAt(own)
      ? { what: "this fingerprint", at: retiredAt(own) }
      : undefined;
  const sameClient = rows.filter(
    (r) => r.client_id === p.clientId && r.resource === request.resource,
  );
  if (sameClient.some((r) => r.status === "ACTIVE")) return undefined;
  const latest = Math.max(0, ...sameClient.map(retiredAt));
  return latest > 0 && request.policyRevision <= latest
    ? { what: `its client ${p.clientId}`, at: latest }
    : undefined;
}

/**
 * When activating `p` re-activates a retired profile — its own fingerprint, or its client for
 * this resource with no active profile of that client now — the retirement it undoes.
 */
function retirementUndone(
  rows: readonly PolicyRow[],
  own: PolicyRow | undefined,
  p: ActivatedProfile,
  resource: string,
): string | undefined {
  if (own) return own.status === "RETIRED" ? (own.retired_at ?? undefined) : undefined;
  const sameClient = rows.filter((r) => r.client_id === p.clientId && r.resource === resource);
  if (sameClient.length === 0 || sameClient.some((r) => r.status === "ACTIVE")) return undefined;
  return sameClient
    .map((r) => r.retired_at ?? "")
    .sort()
    .at(-1);
}

/** What start-up activation did (for the log line; fingerprints are not secrets). */
export interface ActivationOutcome {
  activated: string[];
  retired: string[];
  /**
   * The ACTIVE fingerprints once activated, sorted: what the heartbeat expects to find while no
   * other instance takes over. A configured instance's own; for one that records no profile (the
   * development issuer), whatever was active before it started, which it leaves alone.
   */
  active: string[];
  /**
   * Client id → epoch ms of the re-activation of its profile after a retirement (a rollback):
   * tokens of that client issued before it need fresh authorization. Read from the database, so
   * every instance serving it refuses them.
   */
  freshAuthorizationAfter: Map<string, number>;
}

/** What a running instance registered, for its heartbeat. */
export interface InstanceRegistration {
  instanceId: string;
  /** The sha256 of its recorded fingerprints (`policySetHash`). */
  policySet: string;
  /** The ACTIVE fingerprints it serves under (`ActivationOutcome.active`). */
  active: readonly string[];
}

const activeFingerprints = async (sql: SqlExecutor): Promise<string[]> =>
  (
    await sql.all<{ fingerprint: string }>(
      "SELECT fingerprint FROM client_policy WHERE status = 'ACTIVE'",
    )
  )
    .map((r) => r.fingerprint)
    .sort();

/** Client id → epoch ms of its latest re-activation, over the ACTIVE rows that undid a retirement. */
async function reactivations(sql: SqlExecutor): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const rows = await sql.all<{ client_id: string; activated_at: string }>(
    "SELECT client_id, activated_at FROM client_policy " +
      "WHERE status = 'ACTIVE' AND retired_at IS NOT NULL",
  );
  for (const r of rows) {
    const at = Date.parse(r.activated_at);
    if (Number.isFinite(at) && at > (out.get(r.client_id) ?? 0)) out.set(r.client_id, at);
  }
  return out;
}

/** Register (or renew) an instance with a heartbeat on the database's clock. */
async function register(
  store: CoachStore,
  sql: SqlExecutor,
  instanceId: string,
  policySet: string,
  startedAt: string,
): Promise<void> {
  await sql.run(
    "INSERT INTO server_instances (instance_id, policy_set, started_at, heartbeat_at) " +
      `VALUES (?, ?, ?, ${databaseNowMs(store.dialect)}) ON CONFLICT (instance_id) DO UPDATE ` +
      "SET heartbeat_at = excluded.heartbeat_at, policy_set = excluded.policy_set",
    [instanceId, policySet, startedAt],
  );
}

/**
 * Activate this instance's client profiles in the database at start-up (L14, spec §10.1 "Cutover &
 * rollback"). Refused — nothing changed — when another running instance serves a different set of
 * fingerprints (old and new instances never serve one database with differing profiles), or when a
 * configured fingerprint was retired and the line's `policyRevision` was not raised above the
 * revision that retired it. Otherwise the configured fingerprints become ACTIVE, every other ACTIVE
 * one is RETIRED at the current revision (grants are never rewritten: only this server's record
 * of which profiles it honours changes), and the instance registers its heartbeat. An instance
 * that records no profile (the development issuer) activates and retires nothing: it honours none
 * of the recorded clients, so it has no cutover to make. Liveness is judged on the database's clock
 * (`now` only stamps the rows).
 */
export async function activateClientPolicy(
  store: CoachStore,
  request: {
    instanceId: string;
    profiles: readonly ActivatedProfile[];
    resource: string;
    policyRevision: number;
    now: Date;
    /**
     * Why this server is not compatible with every live approved tool definition, if it is not
     * (`rollbackIncompatibility`): a rollback to a retired profile is then refused.
     */
    incompatibility?: string;
  },
): Promise<ActivationOutcome> {
  const setHash = policySetHash(request.profiles);
  const at = request.now.toISOString();
  return locked(store, async (sql) => {
    await sql.run(
      `DELETE FROM server_instances WHERE heartbeat_at < ${databaseNowMs(store.dialect)} - ?`,
      [INSTANCE_LIVE_MS],
    );
    const registered = await sql.all<InstanceRow>(
      "SELECT instance_id, policy_set FROM server_instances",
    );
    const live: InstanceRow[] = [];
    for (const i of registered) {
      if (i.instance_id !== request.instanceId && goneFromThisHost(i.instance_id))
        await sql.run("DELETE FROM server_instances WHERE instance_id = ?", [i.instance_id]);
      else live.push(i);
    }
    const other = live.find(
      (i) => i.instance_id !== request.instanceId && i.policy_set !== setHash,
    );
    if (other)
      throw new StartupError(
        "CLIENT_POLICY_CONFLICT",
        "another running instance serves this database with different OAuth client profiles " +
          `(its set sha256-${other.policy_set.slice(0, 12)}, this configuration's ` +
          `sha256-${setHash.slice(0, 12)}); old and new profiles never serve one database at ` +
          "once: stop the other instance first, or start this one with the same profiles",
      );
    const rows = await sql.all<PolicyRow>(
      "SELECT fingerprint, client_id, resource, status, activated_at, retired_at, " +
        "retired_at_revision FROM client_policy",
    );
    const byFingerprint = new Map(rows.map((r) => [r.fingerprint, r]));
    const undone = new Map<string, string | undefined>();
    for (const p of recorded(request.profiles)) {
      const own = byFingerprint.get(p.fingerprint);
      const refusal = rollbackRefusal(rows, own, p, request);
      if (refusal)
        throw new StartupError(
          "CLIENT_POLICY_ROLLBACK_REFUSED",
          `client profile "${p.name}" (fingerprint ${p.fingerprint.slice(0, 12)}…): ${refusal.what} ` +
            `was retired at policyRevision ${refusal.at}; rolling back to a retired profile needs ` +
            `a new policyRevision above ${refusal.at} in release/line.json and fresh ` +
            "authorization",
        );
      const retiredAt = retirementUndone(rows, own, p, request.resource);
      if (retiredAt !== undefined && request.incompatibility)
        throw new StartupError(
          "CLIENT_POLICY_ROLLBACK_INCOMPATIBLE",
          `client profile "${p.name}" (fingerprint ${p.fingerprint.slice(0, 12)}…) was retired; ` +
            "re-activating it needs a server that serves every live approved tool definition, " +
            `but ${request.incompatibility}`,
        );
      undone.set(p.fingerprint, retiredAt);
    }
    const wanted = new Set(recorded(request.profiles).map((p) => p.fingerprint));
    const retired =
      wanted.size === 0
        ? []
        : rows.filter((r) => r.status === "ACTIVE" && !wanted.has(r.fingerprint));
    for (const r of retired)
      await sql.run(
        "UPDATE client_policy SET status = 'RETIRED', retired_at = ?, retired_at_revision = ? " +
          "WHERE fingerprint = ?",
        [at, request.policyRevision, r.fingerprint],
      );
    const activated: string[] = [];
    for (const p of recorded(request.profiles)) {
      const row = byFingerprint.get(p.fingerprint);
      if (row?.status === "ACTIVE") continue;
      activated.push(p.fingerprint);
      if (row)
        await sql.run(
          "UPDATE client_policy SET status = 'ACTIVE', activated_at = ?, " +
            "retired_at_revision = NULL WHERE fingerprint = ?",
          [at, p.fingerprint],
        );
      else
        await sql.run(
          "INSERT INTO client_policy (fingerprint, profile_name, client_id, resource, status, " +
            "activated_at, retired_at) VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?)",
          [
            p.fingerprint,
            p.name,
            p.clientId,
            request.resource,
            at,
            undone.get(p.fingerprint) ?? null,
          ],
        );
    }
    await register(store, sql, request.instanceId, setHash, at);
    return {
      activated,
      retired: retired.map((r) => r.fingerprint),
      active: await activeFingerprints(sql),
      freshAuthorizationAfter: await reactivations(sql),
    };
  });
}

/**
 * A running instance's heartbeat: answers whether the database still records exactly the ACTIVE
 * fingerprints the instance serves under and, if so, renews its registration on the database's
 * clock (registering it again when another instance dropped it as stale, e.g. after the process
 * was frozen). `false` means another instance took over with other profiles: this one must stop
 * serving.
 */
export async function clientPolicyHeartbeat(
  store: CoachStore,
  registration: InstanceRegistration,
  now: Date,
): Promise<boolean> {
  return locked(store, async (sql) => {
    const active = await activeFingerprints(sql);
    const mine = [...registration.active].sort();
    const same = active.length === mine.length && active.every((f, i) => f === mine[i]);
    if (same)
      await register(
        store,
        sql,
        registration.instanceId,
        registration.policySet,
        now.toISOString(),
      );
    return same;
  });
}

/** Remove the instance's registration on a clean stop. */
export async function deregisterInstance(store: CoachStore, instanceId: string): Promise<void> {
  await store.adminTransaction((sql) =>
    sql.run("DELETE FROM server_instances WHERE instance_id = ?", [instanceId]),
  );
}

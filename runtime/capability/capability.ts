import { CapabilityError } from "./capability-error.js";
import type { Claims } from "./claims.js";
import type { Keyring } from "./keyring.js";
import type { ReplayStore } from "./replay-store.js";
import { mintToken, openToken, type Expectation, type MintRequest } from "./sealed-claims.js";

/**
 * Issue an opaque capability `cap1.<kid>.<sealed>` (C11). The model forwards it verbatim; only
 * this server can read or forge it.
 */
export function mintCapability(keyring: Keyring, request: MintRequest): string {
  return mintToken(keyring, "cap1", request);
}

/**
 * The storage-free checks, in order: decrypt → complete (incl. session) → not stale.
 * Use for read steps that may be repeated (e.g. fetching answers for an open batch).
 */
export function openCapability(keyring: Keyring, token: string, expect: Expectation): Claims {
  return openToken(keyring, "cap1", token, expect);
}

/** How a single-use capability is spent. */
export interface SpendOptions {
  store: ReplayStore;
  /** Identifies the request spending it; an exact retry passes the same value. */
  use: string;
}

/**
 * All four checks, in order: decrypt → complete → not stale → not replayed. An exact retry
 * (same `use`) passes, so the idempotency layer can answer it with the stored response;
 * another request spending the same token gets CAPABILITY_REPLAYED.
 */
export async function verifyCapability(
  keyring: Keyring,
  token: string,
  expect: Expectation,
  spend: SpendOptions,
): Promise<Claims> {
  const claims = openCapability(keyring, token, expect);
  await spendCapability(spend.store, claims, spend.use);
  return claims;
}

/**
 * Check 4, not replayed: spend the token id of already opened `claims` for the request `use`.
 * The write pipeline runs this inside its transaction (with the database store), so a spend
 * commits or rolls back with the effect it authorizes.
 */
export async function spendCapability(
  store: ReplayStore,
  claims: Claims,
  use: string,
): Promise<void> {
  if ((await store.spend(claims.jti, use, new Date(claims.exp))) === "replayed")
    throw new CapabilityError("CAPABILITY_REPLAYED", "replayed");
}

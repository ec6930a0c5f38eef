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
  const verdict = await spend.store.spend(claims.jti, spend.use, new Date(claims.exp));
  if (verdict === "replayed") throw new CapabilityError("CAPABILITY_REPLAYED", "replayed");
  return claims;
}

import { randomFillSync } from "node:crypto";

/** Bytes fetched from the CSPRNG at once: one call serves dozens of ids, nonces and IVs. */
const POOL_BYTES = 4096;

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `n` fresh bytes from the operating system's CSPRNG, the same source as `crypto.randomBytes`. Each
 * call to `randomBytes` costs a native round trip that dominated the price of a token id or an IV
 * on the hot path, so bytes are fetched in blocks (as Node's own `randomUUID` does) and handed out
 * once each. A block is never rewritten: a refill allocates a new one, so every returned view stays
 * exclusively its caller's.
 */
export function randomPoolBytes(n: number): Buffer {
  if (n > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(n));
  if (offset + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + n);
  offset += n;
  return bytes;
}

/** `n` fresh random bytes as base64url text (ids, token ids). */
export function randomId(n: number): string {
  return randomPoolBytes(n).toString("base64url");
}

import type { IdempotencyKey, IdempotencyRecord } from "./store.js";

/** An `idempotency_records` row as both SQL dialects return it (PostgreSQL: bigint as text). */
export interface IdempotencyRow {
  fingerprint: string;
  response: string;
  created_at: string;
  expires_at: number | string;
}

/** The stored answer under `key`, or undefined when no live row was found. */
export function toIdempotencyRecord(
  key: IdempotencyKey,
  row: IdempotencyRow | undefined,
): IdempotencyRecord | undefined {
  return (
    row && {
      ...key,
      fingerprint: row.fingerprint,
      response: row.response,
      createdAt: row.created_at,
      expiresAt: Number(row.expires_at),
    }
  );
}

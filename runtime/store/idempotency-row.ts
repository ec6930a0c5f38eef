import type { IdempotencyKey, IdempotencyRecord } from "../domain/ports/coach-store.js";

/** The values of an idempotency_records row in column order (session_id … expires_at). */
export function idempotencyValues(r: IdempotencyRecord): unknown[] {
  return [
    r.sessionId,
    r.toolName,
    r.clientRequestId,
    r.fingerprint,
    r.response,
    r.createdAt,
    r.expiresAt,
  ];
}

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

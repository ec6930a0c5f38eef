import { createHash } from "node:crypto";

/**
 * Deep copy of a JSON value with object keys sorted by code point, so equal data serialises to
 * equal bytes.
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort())
      out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** Canonical JSON text for files: sorted keys, two-space indent, trailing newline. */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Compact canonical JSON: sorted keys, no whitespace. Equal data gives equal bytes. */
export function canonicalJsonCompact(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Hex SHA-256 of some bytes (strings are hashed as UTF-8). */
export function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Hex SHA-256 of the compact canonical JSON of a value. */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJsonCompact(value));
}

import { createHash } from "node:crypto";
import { sortKeys } from "../generator/emit/canonical-json.js";

/** Compact canonical JSON: sorted keys, no whitespace. Equal data gives equal bytes. */
export function canonicalJsonCompact(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Hex SHA-256 of the canonical JSON of a value. */
export function canonicalSha256(value: unknown): string {
  return createHash("sha256").update(canonicalJsonCompact(value), "utf8").digest("hex");
}

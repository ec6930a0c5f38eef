import { createCipheriv, createDecipheriv } from "node:crypto";
import { randomPoolBytes } from "../random-pool.js";
import { invalid } from "./capability-error.js";
import type { Keyring } from "./keyring.js";

/** The two token families; each is its own AAD domain. */
export type TokenPrefix = "cap1" | "opt1";

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The schema allows at most 4096 base64url characters for the sealed part. */
const MAX_SEALED_CHARS = 4096;
const TOKEN_PATTERN = /^(cap1|opt1)\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{32,4096})$/;

function associatedData(prefix: TokenPrefix, kid: string, purpose: string): Buffer {
  // The kid and purpose are authenticated as well as the prefix: moving ciphertext between
  // kids, purposes or token families breaks the tag.
  return Buffer.from(`${prefix}.${kid}.${purpose}`, "utf8");
}

function keyInfo(prefix: TokenPrefix, purpose: string): string {
  return `${prefix}/${purpose}`;
}

/**
 * Seal a plaintext as `<prefix>.<kid>.<base64url(iv | ciphertext | tag)>` with AES-256-GCM
 * under the active kid's key for `purpose`.
 */
export function seal(
  keyring: Keyring,
  prefix: TokenPrefix,
  purpose: string,
  plaintext: Buffer,
): string {
  const kid = keyring.activeKid;
  const iv = randomPoolBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyring.derive(kid, keyInfo(prefix, purpose)), iv, {
    authTagLength: TAG_BYTES,
  });
  cipher.setAAD(associatedData(prefix, kid, purpose));
  const sealed = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  const text = sealed.toString("base64url");
  if (text.length > MAX_SEALED_CHARS)
    throw new RangeError("capability claims too large for the token format");
  return `${prefix}.${kid}.${text}`;
}

/**
 * Open a token of the given family and purpose. Any deviation — shape, non-canonical
 * base64url, unknown kid, wrong key, purpose or tag — is CAPABILITY_INVALID.
 */
export function open(
  keyring: Keyring,
  prefix: TokenPrefix,
  purpose: string,
  token: string,
): { kid: string; plaintext: Buffer } {
  const match = typeof token === "string" ? TOKEN_PATTERN.exec(token) : null;
  if (!match || match[1] !== prefix) throw invalid("malformed");
  const [, , kid, text] = match;
  const sealed = Buffer.from(text, "base64url");
  // Buffer's decoder ignores unused trailing bits; insisting on the canonical encoding makes
  // every textual change of the token a change of the sealed bytes.
  if (sealed.toString("base64url") !== text || sealed.length < IV_BYTES + TAG_BYTES + 1)
    throw invalid("malformed");
  if (!keyring.accepts(kid)) throw invalid("unknown-kid");

  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const body = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
  try {
    // authTagLength pins the tag size: without it Node 20 accepts a truncated 4-byte tag.
    const decipher = createDecipheriv(
      "aes-256-gcm",
      keyring.derive(kid, keyInfo(prefix, purpose)),
      iv,
      {
        authTagLength: TAG_BYTES,
      },
    );
    decipher.setAAD(associatedData(prefix, kid, purpose));
    decipher.setAuthTag(tag);
    return { kid, plaintext: Buffer.concat([decipher.update(body), decipher.final()]) };
  } catch {
    throw invalid("decrypt");
  }
}

import { hkdfSync, randomBytes } from "node:crypto";

/** Key ids appear in the token text, so they follow the token alphabet (`$defs/Capability`). */
const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const MASTER_KEY_BYTES = 32;
/** Domain separation for HKDF: a key derived here is never valid for another use. */
const HKDF_SALT = Buffer.from("skillpilot-coach/capability/v1", "utf8");

/**
 * Key material as it appears in configuration: one active key id plus every key id whose
 * tokens are still accepted. A kid that is no longer listed is retired: its tokens fail
 * as CAPABILITY_INVALID.
 */
export interface KeyringConfig {
  /** Kid used to mint new tokens; must be one of `keys`. */
  activeKid: string;
  /** kid → base64url master key (exactly 32 random bytes). */
  keys: Record<string, string>;
}

/** A loaded keyring: master keys never leave this object, only derived per-use keys do. */
export interface Keyring {
  readonly activeKid: string;
  /** True when tokens minted under `kid` are still accepted. */
  accepts(kid: string): boolean;
  /**
   * The 32-byte key for one use (`info`, e.g. "cap1/grading") under one kid, derived with
   * HKDF-SHA-256 from the kid's master key and cached.
   */
  derive(kid: string, info: string): Buffer;
}

/**
 * Load a keyring from configuration. Bad configuration is a start-up failure, so this
 * throws a plain Error naming the problem (never the key bytes).
 */
export function keyringFromConfig(config: KeyringConfig): Keyring {
  const masters = new Map<string, Buffer>();
  for (const [kid, encoded] of Object.entries(config.keys)) {
    if (!KID_PATTERN.test(kid))
      throw new Error(`capability keyring: invalid key id ${JSON.stringify(kid)}`);
    const key = Buffer.from(encoded, "base64url");
    if (key.length !== MASTER_KEY_BYTES || key.toString("base64url") !== encoded)
      throw new Error(
        `capability keyring: key ${kid} must be ${MASTER_KEY_BYTES} bytes in base64url`,
      );
    masters.set(kid, key);
  }
  if (!masters.has(config.activeKid))
    throw new Error(
      `capability keyring: active key id ${JSON.stringify(config.activeKid)} has no key`,
    );

  const derived = new Map<string, Buffer>();
  return {
    activeKid: config.activeKid,
    accepts: (kid) => masters.has(kid),
    derive(kid, info) {
      const cacheKey = `${kid}\u0000${info}`;
      let key = derived.get(cacheKey);
      if (!key) {
        const master = masters.get(kid);
        if (!master) throw new Error(`capability keyring: key id ${kid} is not accepted`);
        key = Buffer.from(hkdfSync("sha256", master, HKDF_SALT, Buffer.from(info, "utf8"), 32));
        derived.set(cacheKey, key);
      }
      return key;
    },
  };
}

/**
 * A fresh configuration entry (e.g. written to the data directory on first start, or added
 * during rotation before it becomes active).
 */
export function generateKeyringConfig(
  kid: string,
  keep: Record<string, string> = {},
): KeyringConfig {
  if (!KID_PATTERN.test(kid))
    throw new Error(`capability keyring: invalid key id ${JSON.stringify(kid)}`);
  return {
    activeKid: kid,
    keys: { ...keep, [kid]: randomBytes(MASTER_KEY_BYTES).toString("base64url") },
  };
}

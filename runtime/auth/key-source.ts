import { readFileSync, statSync } from "node:fs";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from "jose";

/** Where the issuer's public keys come from. */
export type KeySource =
  | { kind: "remote"; jwksUri: string; cooldownMs: number; cacheMaxAgeMs: number }
  | { kind: "file"; file: string }
  | { kind: "static"; jwks: JSONWebKeySet };

/**
 * A JWKS reader for a local file that follows key rotation: the file is read again when its
 * modification time or size changed, checked at most once a second.
 */
function fileKeys(file: string): JWTVerifyGetKey {
  let stamp = "";
  let checkedAt = 0;
  let keys: JWTVerifyGetKey | undefined;
  const load = () => {
    const now = Date.now();
    if (keys && now - checkedAt < 1000) return keys;
    checkedAt = now;
    const stat = statSync(file);
    const next = `${stat.mtimeMs}:${stat.size}`;
    if (!keys || next !== stamp) {
      keys = createLocalJWKSet(JSON.parse(readFileSync(file, "utf8")) as JSONWebKeySet);
      stamp = next;
    }
    return keys;
  };
  return (header, token) => load()(header, token);
}

/**
 * The key resolver `jwtVerify` uses. Remote: jose's cached JWKS, refetched for an unknown `kid`
 * after a cooldown (key rotation) and when older than the cache age.
 */
export function keyResolver(source: KeySource): JWTVerifyGetKey {
  switch (source.kind) {
    case "remote":
      return createRemoteJWKSet(new URL(source.jwksUri), {
        cooldownDuration: source.cooldownMs,
        cacheMaxAge: source.cacheMaxAgeMs,
        timeoutDuration: 5000,
      });
    case "file":
      return fileKeys(source.file);
    case "static":
      return createLocalJWKSet(source.jwks);
  }
}

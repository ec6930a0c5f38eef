import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename } from "node:fs/promises";
import path from "node:path";
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  SignJWT,
} from "jose";
import { developmentProfile } from "./client-profiles.js";

/** File of the development issuer's signing key inside the data directory (0600). */
export const devIssuerKeyFile = "dev-issuer-key.json";

const ALG = "ES256";

/** What a development access token says. */
export interface DevTokenRequest {
  issuer: string;
  audience: string;
  subject: string;
  scopes: readonly string[];
  /** Lifetime in seconds (default one hour). */
  ttlSeconds?: number;
  /** Override the signing time (tests of expiry); default now. */
  issuedAt?: number;
  notBefore?: number;
  clientId?: string;
}

/**
 * The local development issuer (loopback only): one ES256 key kept in the data directory, its
 * public JWKS, and access tokens signed with it — what `skillpilot auth token` prints.
 */
export interface DevIssuer {
  jwks: JSONWebKeySet;
  mint(request: DevTokenRequest): Promise<string>;
}

async function writePrivateAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await open(tmp, "w", 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
}

/** Load the development issuer's key from `dataDir`, creating it on first use. */
export async function loadDevIssuer(dataDir: string): Promise<DevIssuer> {
  const file = path.join(dataDir, devIssuerKeyFile);
  let privateJwk: JWK;
  try {
    privateJwk = JSON.parse(await readFile(file, "utf8")) as JWK;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new Error(`${file} is unreadable; delete it to create a new development key`);
    const { privateKey } = await generateKeyPair(ALG, { extractable: true });
    privateJwk = await exportJWK(privateKey);
    privateJwk.kid = await calculateJwkThumbprint(privateJwk);
    privateJwk.alg = ALG;
    await writePrivateAtomically(file, `${JSON.stringify(privateJwk, null, 2)}\n`);
  }
  const { d: _private, ...publicJwk } = privateJwk;
  const key = await importJWK(privateJwk, ALG);
  return {
    jwks: { keys: [{ ...publicJwk, use: "sig" }] },
    async mint(request) {
      const now = request.issuedAt ?? Math.floor(Date.now() / 1000);
      return new SignJWT({
        scope: [...request.scopes].join(" "),
        client_id: request.clientId ?? developmentProfile.clientId,
      })
        .setProtectedHeader({ alg: ALG, kid: privateJwk.kid, typ: "at+jwt" })
        .setIssuer(request.issuer)
        .setAudience(request.audience)
        .setSubject(request.subject)
        .setIssuedAt(now)
        .setNotBefore(request.notBefore ?? now)
        .setExpirationTime(now + (request.ttlSeconds ?? 3600))
        .setJti(randomUUID())
        .sign(key);
    },
  };
}

import { pluginIdentity } from "../../../generated/identity.gen.js";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import type { ClientProfile } from "../../../runtime/auth/client-profiles.js";
import type { AuthConfig } from "../../../runtime/config/config.js";

/** What a test access token says; anything left out gets a valid default. */
export interface TestTokenRequest {
  issuer?: string;
  audience: string | string[];
  subject: string;
  scopes: readonly string[];
  clientId?: string;
  ttlSeconds?: number;
  issuedAt?: number;
  notBefore?: number;
  /** Claims set after the defaults (`undefined` removes one), for tokens with odd claims. */
  claims?: Record<string, unknown>;
  /** The header's `typ` (default `at+jwt`; null: none); any JSON value, as a careless issuer signs. */
  typ?: unknown;
}

/** A confidential client profile tests configure (the ChatGPT connector's shape). */
export const testConfidentialProfile: ClientProfile = {
  name: "test-connector",
  kind: "confidential",
  clientId: "test-connector-client",
  redirectUris: ["https://host.example/connector/oauth/callback"],
  tokenEndpointAuthMethod: "client_secret_basic",
  pkce: "S256",
};

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/**
 * A stand-in authorization server for tests: ES256 keys whose public JWKS is written to a file and
 * can be served over HTTP (`serveJwks`, counting fetches), key rotation, and tokens signed by the
 * current key.
 */
export interface TestIssuer {
  issuer: string;
  jwksFile: string;
  config(profiles?: readonly ClientProfile[]): AuthConfig;
  mint(request: TestTokenRequest): Promise<string>;
  /** Serve the current JWKS at `<url>`; `fetches` counts requests. */
  serveJwks(): Promise<{ url: string; fetches(): number; close(): Promise<void> }>;
  /** Publish a new key next to the old ones and sign with it from now on. */
  rotate(): Promise<void>;
  /** Stop publishing every key but the current one. */
  retireOldKeys(): Promise<void>;
  /** Remove the JWKS file and its temporary directory. */
  close(): Promise<void>;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = randomUUID();
  return {
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" },
  };
}

/**
 * Create a test issuer with a fresh key; by default it goes by the plugin's authorization server
 * (`oauthIssuer`), which a server bound beyond loopback demands.
 */
export async function createTestIssuer(
  issuer: string = pluginIdentity.oauthIssuer,
): Promise<TestIssuer> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-issuer-"));
  const jwksFile = path.join(dir, "jwks.json");
  let keys: SigningKey[] = [await newKey()];
  const jwks = () => ({ keys: keys.map((k) => k.publicJwk) });
  const publish = () => writeFile(jwksFile, JSON.stringify(jwks()));
  await publish();
  return {
    issuer,
    jwksFile,
    config: (profiles = [testConfidentialProfile]) => ({
      issuer,
      jwksFile,
      clientProfiles: profiles,
    }),
    async mint(r) {
      const now = r.issuedAt ?? Math.floor(Date.now() / 1000);
      const key = keys[keys.length - 1];
      const claims: Record<string, unknown> = {
        scope: r.scopes.join(" "),
        client_id: r.clientId ?? testConfidentialProfile.clientId,
        iss: r.issuer ?? issuer,
        aud: r.audience,
        sub: r.subject,
        iat: now,
        nbf: r.notBefore ?? now,
        exp: now + (r.ttlSeconds ?? 3600),
        ...r.claims,
      };
      for (const [name, value] of Object.entries(claims))
        if (value === undefined) delete claims[name];
      const typ = r.typ === undefined ? "at+jwt" : r.typ;
      return new SignJWT(claims)
        .setProtectedHeader({
          alg: "ES256",
          kid: key.kid,
          ...(typ !== null && { typ: typ as string }),
        })
        .sign(key.privateKey);
    },
    async serveJwks() {
      let count = 0;
      const server = http.createServer((_req, res) => {
        count++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(jwks()));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}/jwks`,
        fetches: () => count,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
    async rotate() {
      keys = [...keys, await newKey()];
      await publish();
    },
    async retireOldKeys() {
      keys = keys.slice(-1);
      await publish();
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
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

/**
 * A stand-in authorization server for tests that cannot use the development issuer (a server
 * beyond loopback, or on PostgreSQL): an ES256 key whose public JWKS is written to a file the
 * server is configured with, and tokens signed by it.
 */
export interface TestIssuer {
  issuer: string;
  jwksFile: string;
  config(profiles?: readonly ClientProfile[]): AuthConfig;
  mint(request: TestTokenRequest): Promise<string>;
}

/** Create a test issuer with a fresh key. */
export async function createTestIssuer(issuer = "https://issuer.test"): Promise<TestIssuer> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-issuer-"));
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = randomUUID();
  const jwksFile = path.join(dir, "jwks.json");
  await writeFile(
    jwksFile,
    JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }] }),
  );
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
      return new SignJWT({
        scope: r.scopes.join(" "),
        client_id: r.clientId ?? testConfidentialProfile.clientId,
      })
        .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
        .setIssuer(r.issuer ?? issuer)
        .setAudience(r.audience)
        .setSubject(r.subject)
        .setIssuedAt(now)
        .setNotBefore(r.notBefore ?? now)
        .setExpirationTime(now + (r.ttlSeconds ?? 3600))
        .sign(privateKey);
    },
  };
}

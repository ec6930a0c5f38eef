import { canonicalSha256 } from "../../contract-model/canonical.js";

/**
 * An OAuth client allowed to obtain tokens for this resource (L14). `confidential`: a client that
 * authenticates at the token endpoint (the ChatGPT connector). `public-cimd`: a native public
 * client identified by its Client ID Metadata Document URL, PKCE S256 only, loopback redirect on
 * any port, never falling back to confidential client authentication.
 */
export interface ClientProfile {
  name: string;
  kind: "confidential" | "public-cimd" | "development";
  clientId: string;
  redirectUris: readonly string[];
  tokenEndpointAuthMethod:
    | "client_secret_basic"
    | "client_secret_post"
    | "private_key_jwt"
    | "none";
  pkce: "S256";
  /**
   * The provider lanes whose endpoints accept this client's tokens (e.g. the ChatGPT connector on
   * the openai lane only); unset: every lane.
   */
  lanes?: readonly string[];
}

/** A profile as activated: its fingerprint covers the profile and the OAuth resource. */
export interface ActivatedProfile extends ClientProfile {
  fingerprint: string;
}

/** The loopback redirect a native client uses: `http://127.0.0.1[:port]/callback/…`. */
const LOOPBACK_REDIRECT = /^http:\/\/127\.0\.0\.1(?::\d{1,5})?\/callback\/[A-Za-z0-9._~-]+$/;

/** Problems with a profile, each a sentence naming the profile; empty when it is consistent. */
export function profileProblems(profile: ClientProfile): string[] {
  const problems: string[] = [];
  const at = `client profile "${profile.name}"`;
  if (profile.pkce !== "S256") problems.push(`${at}: PKCE must be S256`);
  if (profile.kind === "public-cimd") {
    let url: URL | undefined;
    try {
      url = new URL(profile.clientId);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== "https:" || url.pathname === "/")
      problems.push(`${at}: a CIMD client id is the https URL of its metadata document`);
    if (profile.tokenEndpointAuthMethod !== "none")
      problems.push(
        `${at}: a public client never authenticates at the token endpoint ` +
          `(tokenEndpointAuthMethod "none"), so it cannot fall back to confidential auth`,
      );
    for (const uri of profile.redirectUris)
      if (!LOOPBACK_REDIRECT.test(uri))
        problems.push(`${at}: redirect ${uri} is not a loopback http://127.0.0.1/callback/… URI`);
  }
  if (profile.kind === "confidential" && profile.tokenEndpointAuthMethod === "none")
    problems.push(`${at}: a confidential client authenticates at the token endpoint`);
  if (profile.redirectUris.length === 0) problems.push(`${at}: no redirect URI`);
  return problems;
}

/**
 * The fingerprint of a profile for one OAuth resource: sha256 of the canonical JSON of the profile
 * together with the resource, so moving the resource (a cutover) yields new fingerprints.
 */
export function profileFingerprint(profile: ClientProfile, resource: string): string {
  return canonicalSha256({
    ...profile,
    redirectUris: [...profile.redirectUris].sort(),
    resource,
  });
}

/**
 * Whether a redirect URI is allowed by a profile: exact, except that a loopback redirect of a
 * public client may use any port (RFC 8252 §7.3).
 */
export function redirectAllowed(profile: ClientProfile, uri: string): boolean {
  if (profile.redirectUris.includes(uri)) return true;
  if (profile.kind !== "public-cimd") return false;
  const withoutPort = uri.replace(/^http:\/\/127\.0\.0\.1:\d{1,5}\//, "http://127.0.0.1/");
  return profile.redirectUris.some(
    (allowed) =>
      allowed.replace(/^http:\/\/127\.0\.0\.1(:\d{1,5})?\//, "http://127.0.0.1/") === withoutPort,
  );
}

/** The profile the development issuer's tokens carry (loopback only). */
export const developmentProfile: ClientProfile = {
  name: "local-development",
  kind: "development",
  clientId: "skillpilot-local-dev",
  redirectUris: ["http://127.0.0.1/callback/skillpilot-local-dev"],
  tokenEndpointAuthMethod: "none",
  pkce: "S256",
};
